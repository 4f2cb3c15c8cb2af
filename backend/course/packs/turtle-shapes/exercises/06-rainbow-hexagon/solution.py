import turtle

colors = ["red", "orange", "yellow", "green", "blue", "purple"]
turtle.pensize(5)

for color in colors:
    turtle.pencolor(color)
    turtle.forward(100)
    turtle.left(60)
