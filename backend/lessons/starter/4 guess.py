# 猜数字 🎲 Guess the number
import random

secret = random.randint(1, 10)
tries = 0
print("我想了一个 1 到 10 的数字。 I'm thinking of a number from 1 to 10.")

while True:
    guess = int(input("你猜是几？ Your guess: "))
    tries = tries + 1
    if guess < secret:
        print("太小了！ Too small!")
    elif guess > secret:
        print("太大了！ Too big!")
    else:
        print("猜对了！ You got it! 用了", tries, "次 tries")
        break
