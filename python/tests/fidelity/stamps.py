import turtle
t = turtle.Turtle()
ids = []
for i in range(5):
    ids.append(t.stamp()); t.forward(20)
print(ids)
t.clearstamp(ids[1]); t.clearstamps(2); print(t.stamp())
t.left(90); t.forward(10); t.pencolor("red"); t.forward(10)
print(t.stamp())
t.clearstamps(-1); t.clearstamps(); print(t.stamp())
t.begin_fill(); t.circle(10); t.end_fill(); print(t.stamp())
t.write("hi"); print(t.stamp())
t.dot(); print(t.stamp())
u = t.clone(); print(u.stamp(), u.pos(), u.heading(), u.pencolor())
t.shape("blank"); print(t.stamp())
t.shape("arrow"); print(t.stamp())
