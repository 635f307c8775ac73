"""The playground (`play/index.html`): a reader's own program in an editor, stepped with the whole debugger.

Its one debugger (`main`) runs whatever the editor holds as a whole program (steptrace/whole_program.py)
in the page's Pyodide; nothing is recorded at build time. The build gives it the recorder's files, the
limits a lesson has by default, and the examples menu (site/play/examples.toml): each example is a link
whose fragment carries its code (raw deflate, base64url, as the page writes a shared link), its
breakpoints and its input lines.
"""
from __future__ import annotations

import base64
import tomllib
import zlib
from pathlib import Path
from urllib.parse import urlencode

from jinja2 import Environment

from steptrace.capture import OUTPUT_CAP
from steptrace.limits import Limits

from . import assets
from .course import BuildError
from .snippets import Snippet

EXAMPLES = assets.SITE / "play" / "examples.toml"
NAME = "main"                      # the debugger's name: its id, and `f=` in a link
SOURCE = "main.py"                 # how the page names the program
CASE = {"id": "program", "zh": "程序", "en": "Program"}
PLAY_BUNDLE = "play.bundle.js"


def packed_code(text: str) -> str:
    """`text` as a link carries it: raw deflate (the browser's "deflate-raw"), base64url without padding."""
    squeezed = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = squeezed.compress(text.encode("utf-8")) + squeezed.flush()
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def examples() -> list[dict]:
    """The examples menu: label, and the link fragment that opens each with its breakpoints and input."""
    try:
        listed = tomllib.loads(EXAMPLES.read_text(encoding="utf-8"))["example"]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as error:
        raise BuildError(f"{EXAMPLES}: {error}") from None
    out = []
    for example in listed:
        text = (EXAMPLES.parent / "examples" / example["file"]).read_text(encoding="utf-8")
        params = [("f", NAME), ("code", packed_code(text)), *(("bp", str(line)) for line in example["breakpoints"])]
        if example.get("stdin"):
            params.append(("stdin", example["stdin"]))
        out.append({"zh": example["zh"], "en": example["en"], "hash": urlencode(params), "text": text})
    return out


def page_data(worker_files: list[str], pyodide: str, warmup: str) -> dict:
    """What lesson.js reads (as for a lesson page), for one debugger that runs the editor's program; the
    worker warms up on `warmup` (the first example), so that the reader's first run is a warm one."""
    limits = Limits().for_page()
    return {"lesson": "play", "outputCap": OUTPUT_CAP, "root": "..", "files": worker_files, "pythonRoots": ["py"],
            "pyodide": f"pyodide/{pyodide}/", "play": {"maxSeconds": 10},
            "warmup": {"source": SOURCE, "function": NAME, "case": CASE["id"], "limits": limits,
                       "program": {"text": warmup, "stdin": ""}},
            "sources": {SOURCE: {"module": None, "history": None, "spans": []}},
            "functions": {NAME: {"source": SOURCE, "first_line": 1, "last_line": 1, "kind": "function",
                                 "cases": [CASE], "stages": [], "code": {CASE["id"]: ["", ""]}, "limits": limits,
                                 "conditionExample": "n > 0", "afterRun": None, "historyBudget": None,
                                 "recorded": {}}}}


def write_playground(env: Environment, out: Path, strings: dict, worker_files: list[str], pyodide: str) -> None:
    """`play/index.html`: the editor, the input box, the examples and the debugger; and `play/embed/main.html`,
    the same without the examples, for another site's <iframe> (the Embed button's snippet points at it)."""
    menu = examples()
    first = menu[0]
    widget = {"kind": "debugger", "function": NAME, "title": f"{SOURCE} · {NAME}",
              "spec": {"cases": [CASE["id"]], "stages": []}, "labels": {CASE["id"]: CASE},
              "snippet": Snippet(NAME, 1, [], (1, 0))}
    for page, root, embedded in ((out / "play" / "index.html", "..", False),
                                 (out / "play" / "embed" / f"{NAME}.html", "../..", True)):
        data = {**page_data(worker_files, pyodide, first["text"]), "root": root}
        html = env.get_template("play.html").render(widget=widget, examples=menu, first=first, root=root, data=data,
                                                    strings=strings, bundle=PLAY_BUNDLE, embedded=embedded)
        page.parent.mkdir(parents=True, exist_ok=True)
        part = page.with_name(page.name + ".part")
        part.write_text(html, encoding="utf-8")
        part.replace(page)
