import turtle

screen = turtle.Screen()
colors = ["yellow", "pink", "lightblue"]
index = 0
screen.bgcolor(colors[index])


def next_color():
    global index
    index = index + 1
    if index == len(colors):
        index = 0
    screen.bgcolor(colors[index])
    print(colors[index])


screen.onkey(next_color, "space")
screen.listen()
turtle.done()
