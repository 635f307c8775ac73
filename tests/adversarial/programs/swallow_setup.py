# runaway: yes: in setup code (untraced): the limit covers it.
# needs: signals (without them, as in Pyodide, the page's deadline stops it: see the browser drills)
# setup: from swallow_setup import *\nwhile True:\n    pass
def main():
    return 1
