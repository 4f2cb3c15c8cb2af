fruits = ["apple", "banana", "cherry"]

# 1. 加上 mango  Add mango

# 2. 每行打印一种水果  Print each fruit

# 3. 一共有几种？ How many?
print("I have", 3, "fruits")
