import turtle
t = turtle.Turtle()
for args in [(50,), (-30,), (40, 90), (40, -90), (-25, 270), (60, 360, 6), (10, 45, 1), (100, None, 5), (3.3,), (200, 720)]:
    t.circle(*args)
    print(args, t.pos(), t.heading())
t.speed(0); t.circle(77, 33)
print(t.pos(), t.heading(), t.speed())
for s in ("fastest", "fast", "normal", "slow", "slowest", 0, 0.4, 5.6, 10.4, 11, 3):
    t.speed(s); print(s, t.speed())
