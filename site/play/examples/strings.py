sentence = "the quick brown fox"
words = sentence.split()
backwards = ""
for word in words:
    backwards = word + " " + backwards
print(backwards.strip())
print(" ".join(word.capitalize() for word in words))
