# entry: print(main())
# A lesson on pickling registers a reducer for a builtin type with copyreg (copyreg.dispatch_table, a
# dict the module keeps) and never removes it. The next run must pickle as this one did at its start.
import copyreg
import pickle


def reduce_complex(value):
    print("reducing", value)
    return complex, (value.real, value.imag)


def main():
    first = len(pickle.dumps(1 + 2j))
    copyreg.pickle(complex, reduce_complex)
    return first, len(pickle.dumps(1 + 2j))
