import turtle

screen = turtle.Screen()
pen = turtle.Turtle()
pen.hideturtle()
pen.speed(0)
pen.penup()
dots = 0


def dot_here(x, y):
    pen.goto(x, y)
    pen.dot(20, "red")
    print(x, y)


# 把点击和 dot_here 连起来。 Connect clicks to dot_here.

turtle.done()
print("Dots:", dots)
