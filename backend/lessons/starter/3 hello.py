# 你好，世界！ Hello, world!
print("你好，世界！")
print("Hello, world!")

name = "小海龟"
age = 8
print("我叫", name, "，今年", age, "岁 🎂")
print("My name is", name, "and I am", age, "years old")

for ch in "你好":
    print(ch * 3)
