# setup: import program_tracer as shown, sys\nBOX = []\ndef local(frame, event, arg):\n    if event == "line" and frame.f_code.co_name == "spin":\n        BOX.append(frame.f_lineno)\n    return local\ndef watch(frame, event, arg):\n    return local if frame.f_code.co_name == "spin" else None\nsys.settrace(watch)
# entry: print(shown.spin(BOX, 5)); sys.settrace(None)
# backend-bound: with settrace the recorder's trace function replaces the program's, as any debugger's would
# The program's own trace function (installed by setup, a file the recorder does not trace) appends to a
# list the shown frame holds at every line: between two pure lines something changed. With the
# monitoring backend both run, and every step must show what it did (with settrace the
# recorder's tracer replaces it: only the printed total is compared).


def spin(box, n):
    total = 0
    for i in range(n):
        total += i
    return total
