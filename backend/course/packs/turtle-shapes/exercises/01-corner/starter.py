import turtle

turtle.forward(100)

# 在这里转弯，再走 100 步。
# Turn here, then walk 100 steps.
