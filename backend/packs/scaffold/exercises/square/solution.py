import turtle


def square(size):
    for _ in range(4):
        turtle.forward(size)
        turtle.left(90)


side = int(input("Side length? "))
square(side)
print("Perimeter:", 4 * side)
