import turtle
t = turtle.Turtle()
print(t.pencolor(), t.fillcolor(), t.color())
t.color("red"); print(t.color())
t.color("Light Blue", "#abcdef"); print(t.color())
t.pencolor((0.2, 0.4, 0.6)); print(t.pencolor())
t.fillcolor(0.5, 0.25, 1); print(t.fillcolor())
t.color((1, 0, 0), (0, 1, 0)); print(t.color())
turtle.colormode(255); print(turtle.colormode())
t.pencolor(10, 200, 30); print(t.pencolor())
t.color((255, 255, 0)); print(t.color())
turtle.colormode(1.0)
print(t.pencolor())
for bad in ["rde", "#12345", (1, 2), (2, 0, 0), "", "notacolour", (0.5, 0.5, -0.1)]:
    try:
        t.pencolor(bad); print("ok", repr(bad), repr(t.pencolor()))
    except turtle.TurtleGraphicsError as e:
        print("error", repr(bad), e)
turtle.colormode(255)
try:
    t.pencolor(256, 0, 0)
except turtle.TurtleGraphicsError as e:
    print("error", e)
print(turtle.bgcolor()); turtle.bgcolor("navy"); print(turtle.bgcolor())
turtle.bgcolor(1, 2, 3); print(turtle.bgcolor())
turtle.colormode(1.0); turtle.bgcolor(0.5, 0, 0.5); print(turtle.bgcolor())
print(t.pen()["pencolor"], t.pen()["fillcolor"])
