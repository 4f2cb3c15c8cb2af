import turtle

for i in range(3):
    turtle.forward(120)
    turtle.left(60)
