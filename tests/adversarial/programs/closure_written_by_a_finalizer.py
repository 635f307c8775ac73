# A finalizer that writes a closure variable of the frame whose line dropped its object. Under settrace on
# 3.11 CPython copies the frame's variables out before each trace call and back after it: a write made
# in between (the object dies when that copy drops its old value) was undone by the copy back.
def main(freed=0):
    class Noisy:
        def __del__(self):
            nonlocal freed
            freed += 1

    obj = Noisy()
    obj = None
    after = freed
    print(after, freed)
