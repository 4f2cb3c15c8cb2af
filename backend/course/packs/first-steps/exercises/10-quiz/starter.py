questions = [(2, 3), (4, 4), (7, 5)]
score = 0

for a, b in questions:
    answer = int(input(str(a) + " + " + str(b) + " = "))
    # 在这里检查答案。 Check the answer here.

print("Score:", score)
