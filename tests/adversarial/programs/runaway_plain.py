# runaway: yes: a plain infinite loop.
def main():
    while True:
        pass
