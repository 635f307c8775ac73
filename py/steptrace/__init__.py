"""steptrace: record what one shown Python file does while a scenario case runs.

Stdlib only, for CPython 3.11+ and Pyodide. The browser worker calls
`steptrace.runner.run_case(...)` and gets one JSON string (docs/trace-format.md);
authors run `python -m steptrace trace ...` on CPython.

Modules, one concern each: `values` (bounded previews and change keys), `table`
(the event table with its head window and tail ring), `recorder` (frames,
locals diffs, the sys.settrace backend), `monitor` (the sys.monitoring backend),
`capture` (stdout), `files` (what the run left in the temp dir), `runner`
(one run -> one document), `cli`, and `scenario` (scenario files).
"""
