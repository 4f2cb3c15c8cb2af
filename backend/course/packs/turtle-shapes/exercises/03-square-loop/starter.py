import turtle

# 把下面 8 行换成一个 for 循环，再把边长改成 150。
# Replace these 8 lines with a for loop, then make the sides 150.
turtle.forward(100)
turtle.left(90)
turtle.forward(100)
turtle.left(90)
turtle.forward(100)
turtle.left(90)
turtle.forward(100)
turtle.left(90)
