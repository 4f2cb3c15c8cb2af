# 贪吃蛇 🐍 Snake
import random
import turtle

screen = turtle.Screen()
screen.setup(420, 420)
screen.bgcolor("honeydew")
screen.title("贪吃蛇 Snake")
screen.tracer(0)          # 我们自己决定什么时候画 / we update the picture ourselves

head = turtle.Turtle("square")
head.color("darkgreen")
head.penup()

food = turtle.Turtle("circle")
food.color("red")
food.penup()
food.goto(0, 100)

board = turtle.Turtle()
board.hideturtle()
board.penup()
board.goto(0, 170)

body = []
score = 0
direction = "stop"        # 等你按方向键 / waits for an arrow key
playing = True


def show_score():
    board.clear()
    text = f"分数 Score: {score}"
    if direction == "stop":
        text = "按方向键开始 Press an arrow key"
    board.write(text, align="center", font=("Arial", 16, "bold"))


def turn(new, opposite):
    global direction
    starting = direction == "stop"
    if direction != opposite:
        direction = new
    if starting:
        show_score()


def up():
    turn("up", "down")


def down():
    turn("down", "up")


def left():
    turn("left", "right")


def right():
    turn("right", "left")


def game_over():
    global playing
    playing = False
    board.goto(0, 0)
    board.write("游戏结束 Game over", align="center", font=("Arial", 20, "bold"))
    print("游戏结束！分数 Game over! Score:", score)


def move():
    global score
    if not playing:
        return
    if direction == "stop":
        screen.ontimer(move, 150)
        return
    # 身体跟着头走 / the body follows the head
    for i in range(len(body) - 1, 0, -1):
        body[i].goto(body[i - 1].pos())
    if body:
        body[0].goto(head.pos())
    x, y = head.pos()
    steps = {"stop": (0, 0), "up": (0, 20), "down": (0, -20), "left": (-20, 0), "right": (20, 0)}
    dx, dy = steps[direction]
    head.goto(x + dx, y + dy)

    if abs(head.xcor()) > 190 or abs(head.ycor()) > 190:
        game_over()
    for part in body:
        if head.distance(part) < 10:
            game_over()
    if head.distance(food) < 20:
        food.goto(random.randint(-9, 9) * 20, random.randint(-8, 7) * 20)
        part = turtle.Turtle("square")
        part.color("limegreen")
        part.penup()
        part.goto(head.pos())
        body.append(part)
        score = score + 1
        show_score()
    screen.update()
    if playing:
        screen.ontimer(move, 150)


show_score()
screen.listen()
screen.onkey(up, "Up")
screen.onkey(down, "Down")
screen.onkey(left, "Left")
screen.onkey(right, "Right")
move()
turtle.done()
