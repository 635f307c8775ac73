# memory: a loop that rebinds a 20 MB string must not keep the old ones alive.
def main():
    text = ""
    total = 0
    for i in range(60):
        text = str(i) * 10_000_000
        total += len(text)
    return total
