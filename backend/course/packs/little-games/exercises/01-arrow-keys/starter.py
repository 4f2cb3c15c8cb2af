import turtle

screen = turtle.Screen()
t = turtle.Turtle("turtle")
t.color("green")
t.speed(0)


def up():
    t.setheading(90)
    t.forward(20)
    print(t.position())


# 在这里写 down、left、right。 Write down, left and right here.


screen.onkey(up, "Up")
screen.listen()
turtle.done()
