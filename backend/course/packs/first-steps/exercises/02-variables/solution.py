bags = 3
per_bag = 4
total = bags * per_bag

print("Total:", total)
