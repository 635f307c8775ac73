"""Run one lesson case untraced and describe its outcome as plain JSON.

The same text runs in CPython (imported) and in Pyodide (sent as source), so
both interpreters are judged by one function.
"""
import contextlib
import io
import json
import os
import re

RECEIPT = re.compile(r"context-[0-9a-f]{12}\.jsonl")


def run_plain(setup, entry):
    namespace = {"__name__": "__lesson__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(setup, "<setup>", "exec"), namespace)
        except Exception as error:  # the case's setup itself may be the failure (archive_error)
            if "_temp" in namespace:
                namespace["_temp"].cleanup()
            return {"setup_error": f"{type(error).__name__}: {error}"}
        exec(compile(entry, "<entry>", "exec"), namespace)
    directory = namespace["_temp"].name
    files = []
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), encoding="utf-8") as stream:
            lines = stream.read().split("\n")[:-1]  # JSONL: split on "\n" only (not U+0085)
        files.append({"name": RECEIPT.sub("RECEIPT", name),
                      "is_history": [json.loads(line) for line in lines] == namespace["before"]})
    namespace["_temp"].cleanup()
    state = namespace["state"]
    return {
        "stdout": out.getvalue(),
        "observed": json.loads(RECEIPT.sub("RECEIPT", json.dumps(namespace["observed"], ensure_ascii=False))),
        "receipt_is_file": (not state["archives"]
                            or [f["name"] for f in files] == ["RECEIPT"] * len(state["archives"])),
        "archives": len(state["archives"]),
        "summaries": state["summaries"],
        "files": files,
        "unchanged": namespace["messages"] == namespace["before"],
    }
