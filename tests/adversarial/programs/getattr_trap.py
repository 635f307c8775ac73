# Properties and __getattribute__ that raise or print: never triggered by the recorder.
class Trap:
    def __init__(self):
        self.value = 1

    def __getattribute__(self, name):
        if name != "value":
            print("getattribute", name)
        return object.__getattribute__(self, name)

    @property
    def boom(self):
        raise RuntimeError("property ran")


def main():
    trap = Trap()
    return trap.value
