# 点点画画 🖱️ Click to draw
import turtle

screen = turtle.Screen()
screen.title("点点画画 Click to draw")
screen.bgcolor("lightyellow")

pen = turtle.Turtle("turtle")
pen.color("purple")
pen.pensize(3)
pen.speed(5)

colors = ["purple", "red", "orange", "green", "blue"]
clicks = 0


def draw_to(x, y):
    """左键：小海龟爬到你点的地方 / left click: the turtle crawls there."""
    global clicks
    clicks = clicks + 1
    pen.pencolor(colors[clicks % len(colors)])
    pen.goto(x, y)
    pen.dot(12)
    print(f"第 {clicks} 下 click {clicks}: ({x:.0f}, {y:.0f})")


def jump_to(x, y):
    """右键：抬起笔跳过去 / right click: jump there without drawing."""
    pen.penup()
    pen.goto(x, y)
    pen.pendown()


def clean():
    pen.clear()


screen.onscreenclick(draw_to, 1)
screen.onscreenclick(jump_to, 3)
screen.onkey(clean, "c")
screen.listen()
print("点一点画面！按 c 擦掉。Click the drawing! Press c to clear.")
turtle.done()
