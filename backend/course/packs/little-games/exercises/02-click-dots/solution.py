import turtle

screen = turtle.Screen()
pen = turtle.Turtle()
pen.hideturtle()
pen.speed(0)
pen.penup()
dots = 0


def dot_here(x, y):
    global dots
    dots = dots + 1
    pen.goto(x, y)
    pen.dot(20, "red")
    print(x, y)


screen.onscreenclick(dot_here)
turtle.done()
print("Dots:", dots)
