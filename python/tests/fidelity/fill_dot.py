import turtle
t = turtle.Turtle()
print(t.filling()); t.begin_fill(); print(t.filling())
for i in range(5):
    t.forward(100); t.right(144)
t.end_fill(); print(t.filling(), t.pos(), t.heading())
t.fillcolor("yellow"); t.begin_fill(); t.circle(30); t.end_fill()
t.dot(); t.dot(20); t.dot("blue"); t.dot(15, "red"); t.dot(10, 0.5, 0.5, 0.5); t.dot(None, "green")
print(t.pensize(), t.pencolor(), t.isdown(), t.pos())
t.penup(); t.dot(30); print(t.isdown())
