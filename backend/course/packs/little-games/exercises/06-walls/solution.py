import turtle

screen = turtle.Screen()

# 画盒子 Draw the box
box = turtle.Turtle()
box.hideturtle()
box.speed(0)
box.penup()
box.goto(-70, -70)
box.pendown()
for i in range(4):
    box.forward(140)
    box.left(90)

t = turtle.Turtle("turtle")
t.speed(0)
t.penup()


def right():
    t.setheading(0)
    if t.xcor() + 20 > 60:
        print("Bump!")
    else:
        t.forward(20)


def left():
    t.setheading(180)
    if t.xcor() - 20 < -60:
        print("Bump!")
    else:
        t.forward(20)


screen.onkey(right, "Right")
screen.onkey(left, "Left")
screen.listen()
turtle.done()
print("Final x:", round(t.xcor()))
