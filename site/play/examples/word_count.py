text = "a rose is a rose is a rose"
counts = {}
for word in text.split():
    counts[word] = counts.get(word, 0) + 1
print(counts)
print(max(counts, key=counts.get))
