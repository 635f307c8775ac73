# 50,000-step string building as a lesson on performance shows it: += in a loop of 50,000 iterations, the
# same with a list and join, and str.join over map; then a shorter loop of 2,000 += steps in the shown code.
# Recorded step by step, 50,000 iterations would outlast the run's time limit (1 s; a growing string costs
# about 20 us a step, 1.1 s in all on CPython), so the 50,000-step loops are compiled under another file
# name, as the other long programs build theirs: they record no events, and the run ends by itself.
N = 50_000

BUILDERS = '''
def by_concatenation(n):
    text = ""
    for i in range(n):
        text += chr(97 + i % 26)
    return text


def by_join(n):
    parts = []
    for i in range(n):
        parts.append(chr(97 + i % 26))
    return "".join(parts)
'''


def checksum(text):
    return sum(map(ord, text)) % 1_000_003


def main():
    builders = {}
    exec(compile(BUILDERS, "<builders>", "exec"), builders)
    text = builders["by_concatenation"](N)
    joined = builders["by_join"](N)
    mapped = "".join(map(chr, map((26).__rmod__, range(N)))).translate({k: k + 97 for k in range(26)})
    print(len(text), len(joined), len(mapped), text == joined == mapped)
    print(text[:30], text[-5:], checksum(text), text.count("abc"))
    numbers = ", ".join(map(str, range(N)))
    print(len(numbers), numbers[:20], numbers[-12:])
    short = ""
    for i in range(2_000):
        short += str(i % 10)
    print(len(short), short[:12], checksum(short), short == "0123456789" * 200)
