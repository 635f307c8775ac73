fruits = ["apple", "pear"]
basket = fruits
basket.append("plum")
copy = list(fruits)
copy.append("fig")
print(fruits)
print(basket is fruits, copy is fruits)
