# A list whose shared references form a DAG: 2**30 paths, 31 nodes.
def main():
    x = [1]
    for _ in range(30):
        x = [x, x]
    return len(x)
