import turtle
t = turtle.Turtle()
print(t.pensize(), t.width()); t.pensize(5); print(t.pensize()); t.width(2.5); print(t.width())
p = t.pen(); print(sorted(p.items()))
t.pen(pencolor="red", pensize=7, speed=9, pendown=False)
print(sorted(t.pen().items()))
t.pen({"fillcolor": "green", "shown": False}); print(t.isvisible(), t.fillcolor())
t.showturtle(); print(t.isvisible()); t.ht(); print(t.isvisible()); t.st(); print(t.isvisible())
t.hideturtle(); t.showturtle()
print(t.shape()); t.shape("turtle"); print(t.shape())
print(turtle.getshapes())
try:
    t.shape("dragon")
except turtle.TurtleGraphicsError as e:
    print("error", e)
t.shapesize(2); print(t.shapesize()); t.turtlesize(1, 3, 4); print(t.turtlesize()); print(t.resizemode())
t.resizemode("auto"); print(t.resizemode()); t.resizemode("bogus"); print(t.resizemode())
t.tilt(30); print(t.tiltangle()); t.tiltangle(-15); print(t.tiltangle())
t.shearfactor(0.5); print(t.shearfactor())
print(t.shapetransform())
turtle.register_shape("tri", ((0, 0), (10, 10), (-10, 10)))
turtle.addshape("sq", ((0, 0), (5, 0), (5, 5), (0, 5)))
t.shape("tri"); print(t.shape(), "tri" in turtle.getshapes(), "sq" in turtle.getshapes())
print(t.get_shapepoly())
try:
    t.shapesize(0)
except turtle.TurtleGraphicsError as e:
    print("error", e)
