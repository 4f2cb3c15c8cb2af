import turtle
t = turtle.Turtle()
turtle.tracer(0)
for i in range(400):
    t.forward(i * 0.5)
    t.left(59.3)
turtle.update()
print(t.pos(), t.heading())
