def area(width, height):
    return 0


print(area(3, 4))
print(area(5, 6))
