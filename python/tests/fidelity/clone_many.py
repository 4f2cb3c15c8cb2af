import turtle
t = turtle.Turtle()
t.color("red", "blue"); t.pensize(3); t.forward(30); t.left(45)
c = t.clone()
print(c.pos(), c.heading(), c.color(), c.pensize(), c.isdown())
c.forward(20); print(c.pos(), t.pos())
ts = [t.clone() for _ in range(3)]
for i, x in enumerate(ts):
    x.left(i * 30); x.forward(10 * i)
    print(x.pos(), x.heading())
print(len(turtle.Screen().turtles()))
