# runaway: yes: the time limit swallowed by except BaseException.
def main():
    n = 0
    while True:
        try:
            n += 1
        except BaseException:
            pass
