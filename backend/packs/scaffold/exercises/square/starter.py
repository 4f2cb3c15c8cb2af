import turtle

side = int(input("Side length? "))

# Draw the square here. 在这里画正方形。
turtle.forward(side)
