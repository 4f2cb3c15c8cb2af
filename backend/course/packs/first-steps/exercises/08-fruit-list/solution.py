fruits = ["apple", "banana", "cherry"]

fruits.append("mango")

for fruit in fruits:
    print(fruit)

print("I have", len(fruits), "fruits")
