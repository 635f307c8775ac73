// Do the two forms of one trace replay alike? Reads {json, packed} documents (the packed columns
// base64-encoded) as JSON lines on stdin, one run each, and answers one JSON line per run:
// {events, mismatches: [...first few]}. Run by tests/test_packed.py.
//
// At every event (every few, in a long run) it compares what the page asks (eventAt, localsAt, stackAt, returnAt,
// exceptionAt, stdoutUntil) between: the JSON document; the packed form; and the packed form
// built, taken apart with parts(), structured-cloned (what postMessage does) and revived.
import { createInterface } from "node:readline";
import { Replay } from "../../site/js/replay.js";
import { fromPacked } from "../../site/js/trace-columns.js";

function packedOf(message) {
  const columns = {};
  for (const [name, text] of Object.entries(message.columns)) columns[name] = new Uint8Array(Buffer.from(text, "base64"));
  return { header: message.header, previews: message.previews, columns };
}

function view(replay, i) {
  const locals = replay.localsAt(i);
  return JSON.stringify({
    event: replay.eventAt(i),
    frame: locals.frame,
    vars: [...locals.vars],
    changed: [...locals.changed].sort(),
    stack: replay.stackAt(i),
    ret: replay.returnAt(i),
    exc: replay.exceptionAt(i),
    out: replay.stdoutUntil(i),
  });
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const run = JSON.parse(line);
  const fromJson = new Replay(JSON.parse(run.json));
  const built = new Replay(fromPacked(packedOf(run.packed)));
  const { parts, transfer } = new Replay(fromPacked(packedOf(run.packed))).parts();
  const revived = Replay.fromParts(structuredClone(parts, { transfer }));
  const mismatches = [];
  const n = fromJson.eventCount;
  if (built.eventCount !== n || revived.eventCount !== n) mismatches.push({ eventCount: [n, built.eventCount, revived.eventCount] });
  // Every event of a small run; a long one (deep stacks make each view costly) at ~1,500 places.
  const stride = Math.max(1, Math.ceil(n / 1500));
  for (let i = -1; i <= n && mismatches.length < 5; i += i < 200 || i > n - 200 ? 1 : stride) {
    const want = view(fromJson, i);
    for (const [form, replay] of [["packed", built], ["revived", revived]]) {
      const got = view(replay, i);
      if (got !== want) mismatches.push({ form, event: i, want: JSON.parse(want), got: JSON.parse(got) });
    }
  }
  const top = [fromJson.returnedAtTop(), built.returnedAtTop(), revived.returnedAtTop()];
  if (new Set(top).size !== 1) mismatches.push({ returnedAtTop: top });
  const header = (r) => JSON.stringify({ end: r.trace.end, files: r.trace.files, out: r.trace.stdout_text, gap: r.gapInfo() });
  if (header(built) !== header(fromJson) || header(revived) !== header(fromJson)) mismatches.push({ header: [header(fromJson), header(built)] });
  process.stdout.write(JSON.stringify({ events: n, values: built.valueCount, mismatches }) + "\n");
}
