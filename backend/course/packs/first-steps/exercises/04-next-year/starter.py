age = input("How old are you? ")

print("Next year you will be", age + 1)
