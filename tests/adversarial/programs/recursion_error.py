# RecursionError through the shown file: calls and returns still balance.
# limit-bound: yes (which call meets the limit depends on the stack the recorder itself uses)
def down(n):
    return down(n + 1)


def main():
    try:
        down(0)
    except RecursionError:
        print("caught")
    return down(0)
