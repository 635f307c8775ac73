// Log points in Output: a breakpoint with a message writes a line where it is hit instead of pausing,
// as VS Code's log points do. `{expression}` in the message is the expression's value there, in the
// language of conditions (conditions.js), read as an f-string reads it: str() of the value, its
// repr() with `!r`, `{{` and `}}` for braces. What the trace cannot tell (a text it cut) is said,
// never guessed. The lines go between the program's own output at the events they were hit.

import { pythonRepr } from "./conditions.js";
import { pyStr } from "./python-values.js";

/** Hits kept per log point: past it Output says so (a log point on a hot loop). */
export const LOG_CAP = 1000;

/**
 * The message of a log point hit at event `index`, its `{...}` filled in.
 * @param {string} message
 * @param {(source: string) => any} evaluate the expression's value at the hit (Replay.evaluate bound)
 * @returns {string}
 */
export function logText(message, evaluate) {
  return message.replace(/\{\{|\}\}|\{([^{}]+)\}/g, (whole, source) => {
    if (source === undefined) return whole[0];   // {{ and }}
    const [, expression, conversion] = /^(.*?)(?:!([rs]))?$/s.exec(source.trim());
    try {
      const value = evaluate(expression.trim());
      return conversion === "r" ? pythonRepr(value, { strict: true }) : pyStr(value);
    } catch (error) {
      return `<${error instanceof Error ? error.message : String(error)}>`;
    }
  });
}

/**
 * Output up to event `upTo` (as `stdoutUntil` gives it) with the log points' lines put in where they
 * were hit: pieces of program text and log lines, in order.
 * @param {import("./replay.js").Replay} replay
 * @param {number} upTo the event paused at (its log points count: the line was reached), or the last
 * @param {number} shownUntil the event the program's output is shown until (`stdoutUntil`)
 * @param {(hit: {line: number, index: number, message: string, error: string|null}) => string} describe
 * @returns {{pieces: {text: string, log: boolean}[], cut: number[]}}
 */
export function outputWithLogs(replay, upTo, shownUntil, describe) {
  const { hits, cut } = replay.logHits(upTo, LOG_CAP);
  const pieces = [];
  let written = 0;
  for (const hit of hits) {
    const before = replay.stdoutUntil(Math.min(hit.index, shownUntil));
    if (before.length > written) pieces.push({ text: before.slice(written), log: false });
    written = Math.max(written, before.length);
    pieces.push({ text: `${describe(hit)}\n`, log: true });
  }
  const all = replay.stdoutUntil(shownUntil);
  if (all.length > written) pieces.push({ text: all.slice(written), log: false });
  return { pieces, cut };
}
