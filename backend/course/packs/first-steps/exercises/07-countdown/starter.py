count = int(input("Start from? "))

# 用 while 循环倒数。 Count down with a while loop.
print(count)

print("Liftoff!")
