import turtle


def polygon(sides, size):
    for i in range(sides):
        turtle.forward(size)
        turtle.left(360 / sides)


polygon(3, 100)
polygon(4, 100)
polygon(5, 100)
