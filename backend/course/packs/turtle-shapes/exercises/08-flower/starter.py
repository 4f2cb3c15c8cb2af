import turtle

turtle.speed(0)
turtle.pencolor("deeppink")

# 这是一片花瓣。让它重复 12 次！
# This is one petal. Repeat it 12 times!
turtle.circle(60)
turtle.left(30)
