import turtle

screen = turtle.Screen()
target = turtle.Turtle("circle")
target.color("gold")
target.shapesize(2)
target.speed(0)
target.penup()
places = [(100, 50), (-80, -60), (60, -100), (0, 120)]
place = 0
score = 0
target.goto(places[place])


def clicked(x, y):
    global score, place
    if target.distance(x, y) < 30:
        score = score + 1
        print("Hit! Score:", score)
        place = (place + 1) % len(places)
        target.goto(places[place])
    else:
        print("Miss!")


screen.onscreenclick(clicked)
turtle.done()
