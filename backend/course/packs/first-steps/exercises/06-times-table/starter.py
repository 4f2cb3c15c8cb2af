n = int(input("Which number? "))

# 用 for 循环打印 10 行。 Print 10 lines with a for loop.
print(n, "x", 1, "=", n * 1)
