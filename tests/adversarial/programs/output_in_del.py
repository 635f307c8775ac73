# Output written by finalizers, inside the run and at its end.
class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("bye", self.name)


kept = Noisy("module")


def main():
    temp = Noisy("temp")
    del temp
    main.last = Noisy("last")
    print("end of main")
