# Paddle: tracer(0), listen and onkeypress, then a busy loop of update(),
# moves and time.sleep, as many turtle game tutorials write it.
import time
import turtle

screen = turtle.Screen()
screen.setup(400, 400)
screen.tracer(0)

paddle = turtle.Turtle()
paddle.shape("square")
paddle.shapesize(1, 5)
paddle.penup()
paddle.goto(0, -150)

ball = turtle.Turtle()
ball.shape("circle")
ball.penup()


def left():
    paddle.setx(paddle.xcor() - 40)
    print("left", paddle.pos())


def right():
    paddle.setx(paddle.xcor() + 40)
    print("right", paddle.pos())


def other():
    print("another key", paddle.xcor())


screen.onkeypress(left, "Left")
screen.onkeypress(right, "Right")
screen.onkeypress(other)
screen.listen()

dx = 3
while True:
    screen.update()
    ball.setx(ball.xcor() + dx)
    if abs(ball.xcor()) > 180:
        dx = -dx
    time.sleep(0.02)
