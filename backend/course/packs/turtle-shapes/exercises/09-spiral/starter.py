import turtle

turtle.speed(0)

for i in range(40):
    turtle.forward(50)
    turtle.left(90)
