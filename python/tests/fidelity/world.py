import turtle
s = turtle.Screen()
t = turtle.Turtle()
s.setworldcoordinates(-10, -0.5, 50, 1.5)
print(s.mode(), t.pos(), t.heading())
for _ in range(36):
    t.left(10); t.forward(0.5)
print(t.pos(), t.heading())
t.circle(2); print(t.pos(), t.heading())
t.degrees(400); print(t.heading())
