count = int(input("How many numbers? "))
total = 0
for _ in range(count):
    total += int(input("Number: "))
print("total:", total)
