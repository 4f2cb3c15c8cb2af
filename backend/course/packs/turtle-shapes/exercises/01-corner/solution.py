import turtle

turtle.forward(100)
turtle.left(90)
turtle.forward(100)
