import turtle

screen = turtle.Screen()
t = turtle.Turtle("turtle")
t.color("green")
t.speed(0)


def up():
    t.setheading(90)
    t.forward(20)
    print(t.position())


def down():
    t.setheading(270)
    t.forward(20)
    print(t.position())


def left():
    t.setheading(180)
    t.forward(20)
    print(t.position())


def right():
    t.setheading(0)
    t.forward(20)
    print(t.position())


screen.onkey(up, "Up")
screen.onkey(down, "Down")
screen.onkey(left, "Left")
screen.onkey(right, "Right")
screen.listen()
turtle.done()
