import turtle

turtle.speed(0)
turtle.pencolor("deeppink")

for i in range(12):
    turtle.circle(60)
    turtle.left(30)
