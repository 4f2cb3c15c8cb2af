# 把引号里的字改成 Hello, world!
# Change the words in the quotes into Hello, world!
print("Hello")
