"""A reader's whole program, run as `python main.py < stdin` would run it, and recorded: the playground's run.

The program is one file: its text is written to `PROGRAM_PATH` (so a traceback and the recorder see real
lines), compiled first (a syntax error is answered at its line with nothing run), then executed as
`__main__` by the entry, with the recorder on, then the call the reader names, if any (`main()`, which a
program guarded by `if __name__ == "__main__"` makes itself). Its `<module>` frame is recorded like any
function's: its locals are the module's globals. `input()` reads the given stdin lines as CPython reads a piped
stdin: the prompt is written, the line is not echoed, and one line too many raises EOFError ("EOF when
reading a line"), which the page turns into "add a line to the input box".
"""
from __future__ import annotations

import os
from builtins import SyntaxError, compile, open
from typing import Any

from .runner import Recording, not_run, run_case

PROGRAM_PATH = "/tmp/stepwise-play/main.py"
FUNCTION = "<module>"
SETUP = "import io, sys\nsys.stdin = io.StringIO({stdin!r})\n"
ENTRY = ("__program = {{'__name__': '__main__', '__builtins__': __builtins__, '__file__': {path!r}}}\n"
         "with open({path!r}, encoding='utf-8') as __file:\n"
         "    __code = compile(__file.read(), {path!r}, 'exec')\n"
         "exec(__code, __program)\n"
         "exec(compile({call!r}, '<call>', 'exec'), __program)\n")


def run_program(text: str, stdin: str = "", *, call: str = "", path: str = PROGRAM_PATH,
                **options: Any) -> str | dict | None:
    """Record `text` run as a program with `stdin`, then `call` (code the reader names, e.g. `main()`, run in
    the module's namespace after it; "" for none). `options` are `run_case`'s: form, limits, backend…"""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
    case = options.pop("case", "program")
    try:
        compile(text, path, "exec")
        compile(call, "<call>", "exec")
    except SyntaxError as error:   # said at the reader's line, with nothing run
        recording = Recording(*not_run(error, path, FUNCTION, case))
        if options.get("out") is not None:
            recording.write(options["out"])
            return None
        return recording.written(options.get("form", "json"))
    return run_case(path, None, SETUP.format(stdin=stdin), ENTRY.format(path=path, call=call), function=FUNCTION,
                    case=case, **options)
