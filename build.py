"""Build this repository's course (lessons/, scenarios/, py/), or build and serve it on 127.0.0.1.

    python build.py [--out DIR]                        build into DIR (default dist/)
    python build.py serve [--port N] [--out DIR] [--watch]
                                                       build, then serve with COOP/COEP headers

The same as `stepwise build .` and `stepwise serve .` at the repository's root, with this checkout's
own code (py/stepwise, the builder) whatever is installed. `--help` lists every option.
"""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO / "py"))
from stepwise import cli  # noqa: E402

if __name__ == "__main__":
    argv = sys.argv[1:]
    command = argv.pop(0) if argv and argv[0] in ("build", "serve") else "build"
    sys.exit(cli.main([command, str(REPO), *argv]))
