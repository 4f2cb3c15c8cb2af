import turtle

# 墙 The walls
for i in range(4):
    turtle.forward(100)
    turtle.left(90)

# 屋顶 The roof
turtle.penup()
turtle.goto(0, 100)
turtle.pendown()
turtle.fillcolor("red")
turtle.begin_fill()
for i in range(3):
    turtle.forward(100)
    turtle.left(120)
turtle.end_fill()
