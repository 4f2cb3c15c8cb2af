import turtle
t = turtle.Turtle()
t.write("Hello")
t.write("你好，海龟！", align="center", font=("Arial", 16, "bold"))
t.write(12345, False, "right")
t.write("<script>alert(1)</script> & \"quotes\" 'x'", font=("Times", 12, "italic"))
print(t.pos(), t.heading())
t.penup(); t.goto(-50, 50)
t.write("move", move=False); print(t.pos())
