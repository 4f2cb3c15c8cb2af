questions = [(2, 3), (4, 4), (7, 5)]
score = 0

for a, b in questions:
    answer = int(input(str(a) + " + " + str(b) + " = "))
    if answer == a + b:
        score = score + 1
        print("Right!")
    else:
        print("Oops")

print("Score:", score)
