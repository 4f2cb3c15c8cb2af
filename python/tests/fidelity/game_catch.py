# Catch the turtle: clicking on the turtle itself scores and makes it jump;
# a click anywhere is reported by the screen's handler too.
import turtle

screen = turtle.Screen()
screen.setup(400, 400)
bug = turtle.Turtle()
bug.shape("turtle")
bug.shapesize(2)
bug.color("green")
bug.penup()
bug.speed(0)

SPOTS = [(100, 50), (-80, 120), (-120, -60), (0, 0)]
score = [0]


def caught(x, y):
    score[0] += 1
    bug.goto(SPOTS[score[0] % len(SPOTS)])
    bug.left(90)
    print("caught", score[0], "now at", bug.pos(), bug.heading())


def clicked(x, y):
    print("click", x, y, "score", score[0])


bug.onclick(caught)
screen.onclick(clicked)
turtle.done()
print("final score", score[0])
