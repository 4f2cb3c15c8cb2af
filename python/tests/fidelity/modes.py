import turtle
t = turtle.Turtle()
print(turtle.mode(), t.heading())
turtle.mode("logo"); print(turtle.mode(), t.heading(), t.pos())
t.forward(50); t.left(30); print(t.pos(), t.heading()); t.right(100); print(t.heading())
t.setheading(90); print(t.pos(), t.heading()); t.forward(10); print(t.pos())
print(t.towards(0, 0)); t.circle(30, 90); print(t.pos(), t.heading())
turtle.mode("standard"); print(t.pos(), t.heading())
t.degrees(400); t.left(100); print(t.heading()); t.forward(10); print(t.pos())
t.radians(); print(t.heading()); t.left(3.141592653589793 / 4); print(t.heading())
t.circle(20, 3.14159); print(t.pos(), t.heading())
t.degrees(); print(t.heading())
try:
    turtle.mode("weird")
except turtle.TurtleGraphicsError as e:
    print("error", e)
