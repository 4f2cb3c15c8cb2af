import turtle


def polygon(sides, size):
    for i in range(4):
        turtle.forward(size)
        turtle.left(90)


polygon(3, 100)
polygon(4, 100)
polygon(5, 100)
