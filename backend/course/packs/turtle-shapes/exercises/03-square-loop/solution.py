import turtle

for i in range(4):
    turtle.forward(150)
    turtle.left(90)
