# 金色的星星 ⭐ A golden star
import turtle

t = turtle.Turtle()
t.speed(8)              # 快，但还能看清楚  fast, but you can still watch it draw
t.color("gold")

# 星星 The star: 5 points. At each tip turn right 144°, at each dent turn left 72°
t.penup()
t.goto(-100, 30)
t.pendown()
t.begin_fill()
for i in range(5):
    t.forward(76.4)
    t.left(72)
    t.forward(76.4)
    t.right(144)
t.end_fill()

# 小圆点 Little dots all around it
t.penup()
for i in range(12):
    t.goto(0, -3)
    t.setheading(i * 30)
    t.forward(150)
    t.dot(10, "orange")

t.hideturtle()
print("你好！我画了一颗金色的星星 ⭐")
print("Hello! I drew a golden star ⭐")
turtle.done()
