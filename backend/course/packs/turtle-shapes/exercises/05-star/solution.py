import turtle

turtle.pencolor("orange")
turtle.fillcolor("gold")
turtle.begin_fill()
for i in range(5):
    turtle.forward(150)
    turtle.right(144)
turtle.end_fill()
