# An exception whose __str__ never returns, raised through the shown file.
class Bad(Exception):
    def __str__(self):
        while True:
            pass

    def __repr__(self):
        while True:
            pass


def main():
    problem = Bad("details")
    raise problem
