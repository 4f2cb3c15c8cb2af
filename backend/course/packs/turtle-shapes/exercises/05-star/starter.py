import turtle

turtle.pencolor("orange")

for i in range(5):
    turtle.forward(150)
    turtle.right(72)
