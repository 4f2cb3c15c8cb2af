# 花朵 🌸 A flower
import turtle

t = turtle.Turtle()
t.speed(0)
colors = ["red", "orange", "gold", "green", "blue", "purple"]

for i in range(36):
    t.pencolor(colors[i % 6])
    t.circle(80)
    t.left(10)

t.penup()
t.goto(0, -120)
t.write("花朵 Flower", align="center", font=("Arial", 18, "bold"))
t.hideturtle()
turtle.done()
