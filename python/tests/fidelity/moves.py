import turtle
t = turtle.Turtle()
for d in (10, 33.3, -7):
    t.forward(d); print(t.pos(), t.xcor(), t.ycor())
    t.fd(d); t.back(d / 2); t.bk(1); t.backward(2); print(t.position())
for a in (30, 45.5, -200, 720, 1e-9):
    t.left(a); print(t.heading()); t.right(a / 3); print(t.heading()); t.lt(1); t.rt(2); print(t.heading())
t.goto(10, 20); print(t.pos()); t.setpos((30, -40)); t.setposition(t.pos() + (1, 1)); print(t.pos())
t.setx(5); t.sety(-6); print(t.pos())
t.setheading(123); print(t.heading()); t.seth(-45); print(t.heading())
print(t.towards(0, 0), t.towards((100, 100)), t.distance(0, 0), t.distance((3, 4)))
u = turtle.Turtle(); u.forward(77)
print(t.distance(u), t.towards(u), u.distance(t))
t.home(); print(t.pos(), t.heading())
print(t.isdown()); t.penup(); print(t.isdown()); t.pd(); t.up(); t.down(); t.pu(); print(t.isdown())
