# Nesting far past any cap (2,000 levels: Pyodide itself cannot free much deeper lists).
def main():
    deep = []
    for _ in range(2_000):
        deep = [deep]
    wide = list(range(1_000_000))
    text = "x" * 5_000_000
    return len(wide) + len(text)
