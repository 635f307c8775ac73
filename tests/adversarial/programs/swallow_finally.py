# runaway: yes: the time limit swallowed by finally: continue.
def main():
    n = 0
    while True:
        try:
            n += 1
        finally:
            continue  # noqa: B012
