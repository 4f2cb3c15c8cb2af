import turtle

# 墙 The walls
for i in range(4):
    turtle.forward(100)
    turtle.left(90)

# 屋顶 The roof
