import turtle

turtle.speed(0)

for i in range(40):
    turtle.forward(5 + i * 5)
    turtle.left(90)
