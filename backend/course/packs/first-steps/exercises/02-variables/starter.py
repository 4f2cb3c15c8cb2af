bags = 3
per_bag = 4
total = 0

print("Total:", total)
