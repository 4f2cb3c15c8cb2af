from turtle import Vec2D
a = Vec2D(1, 2); b = Vec2D(3.5, -4.25)
print(a, b, a + b, a - b, a * b, a * 3, 3 * a, -a, abs(b))
print(a.rotate(90), b.rotate(-33.3), Vec2D(0.004, -0.005), repr(Vec2D(1e6, -2.5)))
print(isinstance(a, tuple), a[0], a[1], tuple(a + (1, 1)), Vec2D(*a) == a)
x, y = b
print(x, y, hash(a) == hash((1, 2)))
