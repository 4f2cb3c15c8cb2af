import turtle

screen = turtle.Screen()
colors = ["yellow", "pink", "lightblue"]
index = 0
screen.bgcolor(colors[index])


def next_color():
    global index
    # 在这里换到下一种颜色。 Move on to the next colour here.
    screen.bgcolor(colors[index])
    print(colors[index])


screen.onkey(next_color, "space")
screen.listen()
turtle.done()
