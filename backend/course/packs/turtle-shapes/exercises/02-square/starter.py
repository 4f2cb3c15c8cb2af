import turtle

turtle.forward(100)
turtle.left(90)
turtle.forward(100)
turtle.left(90)

# 还差两条边！ Two more sides to go!
