"""steptrace: record what one shown Python file does while a scenario case runs.

Stdlib only, for CPython 3.11+ and Pyodide. The browser worker calls
`steptrace.runner.run_case(...)` and gets one JSON string (docs/trace-format.md);
authors run `python -m stepwise trace ...` on CPython (`stepwise`, beside it).

Modules, one concern each. In the worker: `previews` (bounded previews and their
snaps, no program code run), `values` (the value table and change checks),
`snap_check` ("does it still preview the same?"), `exceptions` (describing one),
`table` (the event table with its head window and tail ring), `recorder` (frames,
locals diffs), `settrace` and `monitor` (the two backends), `deadline` (the time
limit), `capture` (stdout and stderr), `isolation` (a clean interpreter and private
folders per run), `freeing` (letting a run's objects go one at a time), `files`
(what the run made), `runner` (one run -> one document), `limits` (the run limits,
also checked for authors), `document` and `packed` (the trace's two forms).
"""
