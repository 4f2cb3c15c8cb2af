secret = 7
guess = int(input("Your guess: "))

if guess == secret:
    print("Right!")
elif guess > secret:
    print("Too big")
else:
    print("Too small")
