# seconds: 4
# memory: lists of long texts made and dropped over and over (a new list each time, and one list refilled in place) must not stay alive in the recorder's caches.
def rows(i):
    return [[f"{i}-{k}-{j}-" * 3000 for j in range(16)] for k in range(16)]


def main():
    table = []
    for i in range(40):
        batch = rows(i)
        table[:] = rows(i + 1000)
    return len(batch) + len(table)
