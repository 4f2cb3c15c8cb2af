# Click to draw: the turtle turns towards each click and draws a line to it;
# the right button lifts or lowers the pen.
import turtle

screen = turtle.Screen()
screen.setup(500, 400)
pen = turtle.Turtle()
pen.speed(6)
pen.color("purple")
pen.pensize(3)


def draw(x, y):
    pen.setheading(pen.towards(x, y))
    pen.goto(x, y)
    print("to", pen.pos(), round(pen.heading(), 6), pen.isdown())


def toggle(x, y):
    if pen.isdown():
        pen.penup()
    else:
        pen.pendown()
    print("pen down:", pen.isdown(), "at", x, y)


screen.onscreenclick(draw)
screen.onscreenclick(toggle, 3)
turtle.done()
print("picture done", pen.pos())
