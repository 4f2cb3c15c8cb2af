import turtle

screen = turtle.Screen()
light = turtle.Turtle("circle")
light.shapesize(4)
colors = ["green", "yellow", "red"]
n = 0


def change():
    global n
    light.color(colors[n])
    print(colors[n])
    n = n + 1
    if n == len(colors):
        n = 0
    screen.ontimer(change, 300)


change()
turtle.done()
