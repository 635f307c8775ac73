"""The alternative to putting state back: a fresh interpreter for every live run (a spare worker booted
while the reader reads, the used one terminated), measured in the lesson page on what it would cost.

In the page (cross-origin isolated, so `performance.measureUserAgentSpecificMemory` answers): the page's
own worker is booted and warm; then, per round, a second `WorkerClient` with the page's options is booted
(the spare: its boot, warm-up run included, is what must finish between two of the reader's runs), every
lesson case is run once on a fresh spare each (the run a reader would get from it) and once on the warm
worker (the run isolation gives), and the page's memory is read with one worker and with two.
"""
from __future__ import annotations

from browser import CASES
from common import stats
from page import LONG, new_page
from server import Server

MEASURE = """async ([cases, rounds]) => {
  const { WorkerClient } = await import(new URL('assets/js/worker-client.js', document.baseURI + '../').href);
  const page = stepwise.worker;
  await page.boot();
  const options = { root: page.root, files: page.files, pythonRoots: page.pythonRoots, pyodide: page.pyodide,
                    warmup: page.warmup };
  const lesson = JSON.parse(document.getElementById('lesson-data').textContent);
  const request = (name, id) => {
    const fn = lesson.functions[name];
    const [setup, entry] = fn.code[id];
    return { source: fn.source, module: lesson.sources[fn.source].module, setup, entry, function: name, case: id,
             limits: fn.limits };
  };
  const timed = async (worker, req) => {
    const t = performance.now();
    const answer = await worker.run(req).result;
    return { ms: performance.now() - t, ok: answer.type === 'trace' };
  };
  const memory = async () => (await performance.measureUserAgentSpecificMemory()).bytes;
  const out = { boot: [], fresh: [], warm: [], memory_one: [], memory_two: [] };
  for (let round = 0; round < rounds; round++) {
    out.memory_one.push(await memory());
    for (const [name, ids] of Object.entries(cases)) {
      for (const id of ids) {
        const spare = new WorkerClient(options);
        const t = performance.now();
        await spare.boot();
        out.boot.push(performance.now() - t);
        if (name === 'split_history' && id === ids[0]) out.memory_two.push(await memory());
        out.fresh.push({ case: `${name}/${id}`, ...(await timed(spare, request(name, id))) });
        spare.worker.terminate();
        out.warm.push({ case: `${name}/${id}`, ...(await timed(page, request(name, id))) });
      }
    }
  }
  return out;
}"""


def bench_fresh_worker(browser, server: Server, rounds: int) -> dict:
    context, page, _ = new_page(browser)
    page.goto(server.lesson_url)
    page.wait_for_selector(".boot[data-state=ready]", timeout=LONG)
    page.set_default_timeout(600_000)
    raw = page.evaluate(MEASURE, [CASES, rounds])
    context.close()
    if not all(run["ok"] for run in raw["fresh"] + raw["warm"]):
        raise RuntimeError("a run on a fresh or a warm worker did not answer with a trace")
    return {"rounds": rounds, "cases": len(raw["warm"]) // rounds,
            "boot_ms": stats(raw["boot"], 0),
            "fresh_run_ms": stats([run["ms"] for run in raw["fresh"]], 1),
            "warm_run_ms": stats([run["ms"] for run in raw["warm"]], 1),
            "memory_one_worker_mb": stats([b / 1e6 for b in raw["memory_one"]], 0),
            "memory_two_workers_mb": stats([b / 1e6 for b in raw["memory_two"]], 0)}
