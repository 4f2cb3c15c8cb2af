secret = 7
guess = int(input("Your guess: "))

if guess == secret:
    print("Right!")
