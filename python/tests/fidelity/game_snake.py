# Snake: the head moves on a timer that stops re-arming after three steps;
# each arrow key turns it and starts three more steps.
import turtle

screen = turtle.Screen()
screen.setup(400, 400)
screen.title("Snake")
screen.bgcolor("black")

head = turtle.Turtle()
head.shape("square")
head.color("lime")
head.penup()
head.speed(0)

HEADINGS = {"Up": 90, "Down": 270, "Left": 180, "Right": 0}
steps_left = [3]
body = []


def move():
    head.forward(20)
    body.append(head.stamp())
    if len(body) > 4:
        head.clearstamp(body.pop(0))
    steps_left[0] -= 1
    print("move", head.pos(), head.heading(), len(body))
    if steps_left[0] > 0:
        screen.ontimer(move, 40)


def turner(key):
    def turn():
        head.setheading(HEADINGS[key])
        print("turn", key, head.heading(), head.pos())
        steps_left[0] = 3
        screen.ontimer(move, 40)
    return turn


for key in HEADINGS:
    screen.onkey(turner(key), key)
screen.listen()
screen.ontimer(move, 40)
turtle.done()
print("game over", head.pos(), head.heading())
