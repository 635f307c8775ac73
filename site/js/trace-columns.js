// The trace as typed columns: what the replay engine indexes (docs/trace-format.md, "Packed form").
//
// A trace reaches the page in one of two forms. The worker sends the packed form: the recorder's
// tables as columns of bytes (transferable buffers, no parse) plus two short JSON texts. Recorded
// traces, tests and the CLI use the JSON document. Both are read into the same `TraceColumns`, so
// the engine has one reader. Values stay where they are until asked for: a number is made into its
// preview on demand, a preview of the packed form is parsed from its slice of the JSON text.

/** The packed form's columns this page reads (`PACKED_FORM` in py/steptrace/packed.py). */
const PACKED_FORM = 2;

/** Value kinds of the packed form (py/steptrace/packed.py). */
export const PREVIEW = 0, INT = 1, FLOAT = 2, BOOL = 3, NONE = 4;

const KIND_CHARS = new Set([99, 108, 114, 120]); // c l r x

/**
 * @typedef {{t: string, r: string, [key: string]: any}} Value
 * @typedef {{
 *   header: any,
 *   frames: {id: Int32Array, parent: Int32Array, line: Int32Array, fn: Int32Array},
 *   functions: string[],
 *   events: {kind: Uint8Array, line: Int32Array, frame: Int32Array},
 *   deltas: {event: Int32Array, frame: Int32Array, full: Uint8Array, sets: Int32Array},
 *   sets: {name: Int32Array, value: Int32Array},
 *   names: string[],
 *   deleted: [number, string][],
 *   values: ValueTable,
 *   returns: {event: Int32Array, value: Int32Array},
 *   exceptions: [number, any][],
 *   helpers: [number, string][],
 *   closures: [number, string[]][],
 *   stdout: any[],
 *   gap: {after: number, dropped: number}|null,
 * }} TraceColumns
 */

function fail(msg) {
  throw new Error(`Bad Stepwise trace: ${msg}`);
}

const isInt = (x) => Number.isInteger(x);

/**
 * Python's repr of a float, from JS's shortest round-trip digits (both are the shortest string
 * that reads back as the same double; they differ only in layout).
 * @param {number} x
 */
export function pythonFloatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exponent] = x.toExponential().split("e");
  const exp = Number(exponent);
  const sign = x < 0 ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
    return `${sign}${whole}.${digits.slice(exp + 1) || "0"}`;
  }
  const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${lead}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/**
 * Where each element of a JSON list of objects starts and ends, without parsing it (the worker
 * does this so that the page parses one preview at a time, when it is shown).
 * @param {string} text  `[{...},{...}]` as Python's json.dumps writes it
 */
export function splitJsonList(text) {
  let starts = new Uint32Array(1024), ends = new Uint32Array(1024), n = 0;
  let depth = 0, inString = false;
  for (let i = 0, len = text.length; i < len; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (depth++ === 1) {
        if (n === starts.length) {
          const s = new Uint32Array(n * 2), e = new Uint32Array(n * 2);
          s.set(starts);
          e.set(ends);
          starts = s;
          ends = e;
        }
        starts[n] = i;
      }
    } else if (c === 125 || c === 93) {
      if (--depth === 1) ends[n++] = i + 1;
    }
  }
  if (depth !== 0 || inString) fail("the previews text is not a whole JSON list");
  return { starts: starts.slice(0, n), ends: ends.slice(0, n) };
}

/**
 * A value written as a `like` (docs/trace-format.md, Value): the one `like` entries back, with this
 * one's keys (its length) in place of its own, or with its object numbers replaced by `ids`. The
 * recorder writes a growing list or text so (the shown items once, a length a step), and a copy of
 * what it showed before (the same but for its numbers). (A function, not a method: a table revived after postMessage has
 * the class's prototype but none of its private members.)
 * @param {ValueTable} table
 * @param {number} k
 * @param {Value} value
 */
function rebuilt(table, k, value) {
  const back = value.like;
  if (!isInt(back) || back < 1 || back > k) fail(`value ${k} is "like" ${JSON.stringify(back)} entries back, outside "values"`);
  const base = table.get(k - back);
  if (base === undefined || base.t !== value.t) fail(`value ${k} is "like" value ${k - back}, which is not a ${value.t}`);
  if (value.ids !== undefined) return renumbered(base, value.ids, k);
  const rebuilt = { ...base, ...value };
  delete rebuilt.like;
  return rebuilt;
}

/**
 * A copy of `base` with its object numbers (`id`) replaced, in walk order, by `ids`: a node's own number,
 * then those of its items, entries (key, value) and fields (docs/trace-format.md, "Object numbers").
 * @param {Value} base
 * @param {number[]} ids
 * @param {number} k  the value's index, for the error
 */
function renumbered(base, ids, k) {
  let next = 0;
  /** @param {any} node @returns {any} */
  const walk = (node) => {
    const copy = { ...node };
    if ('id' in node) {
      if (next >= ids.length) fail(`value ${k} has fewer "ids" than the value it is like has numbers`);
      copy.id = ids[next++];
    }
    if (node.items) copy.items = node.items.map(walk);
    if (node.entries) copy.entries = node.entries.map((/** @type {any[]} */ [key, part]) => [walk(key), walk(part)]);
    if (node.fields) copy.fields = node.fields.map((/** @type {any[]} */ [name, part]) => [name, walk(part)]);
    return copy;
  };
  const copy = walk(base);
  if (next !== ids.length) fail(`value ${k} has ${ids.length} "ids", the value it is like has ${next} numbers`);
  return copy;
}

/** The value pool: numbers kept as numbers, previews as objects or as slices of one JSON text. */
export class ValueTable {
  /**
   * @param {Uint8Array} kinds  one per value (PREVIEW, INT, FLOAT, BOOL, NONE)
   * @param {Float64Array} numbers  the number of each non-preview value
   * @param {{list?: Value[], text?: string, starts?: Uint32Array, ends?: Uint32Array}} previews
   *   the previews in order, as objects or as a JSON text with each one's slice
   */
  constructor(kinds, numbers, previews) {
    this.kinds = kinds;
    this.numbers = numbers;
    this.previews = previews;
    const count = previews.list ? previews.list.length : previews.starts.length;
    // value index -> preview index, for the values that are previews
    this.slot = new Int32Array(kinds.length);
    let p = 0;
    for (let k = 0; k < kinds.length; k++) {
      if (kinds[k] === PREVIEW) this.slot[k] = p++;
      else if (kinds[k] > NONE) fail(`value ${k} has an unknown kind ${kinds[k]}`);
    }
    if (p !== count) fail(`${p} values are previews but ${count} previews were given`);
    /** @type {Map<number, Value>} previews already parsed */
    this.parsed = new Map();
  }

  get size() { return this.kinds.length; }

  /** The Value at index k (undefined outside the table). @param {number} k */
  get(k) {
    switch (this.kinds[k]) {
      case INT: return { t: "int", r: String(this.numbers[k]) };
      case FLOAT: return { t: "float", r: pythonFloatRepr(this.numbers[k]) };
      case BOOL: return { t: "bool", r: this.numbers[k] ? "True" : "False" };
      case NONE: return { t: "NoneType", r: "None" };
      case PREVIEW: {
        const p = this.slot[k];
        let value = this.parsed.get(p);
        if (value === undefined) {
          value = this.previews.list
            ? this.previews.list[p]
            : JSON.parse(this.previews.text.slice(this.previews.starts[p], this.previews.ends[p]));
          if (value !== null && typeof value === "object" && "like" in value) value = rebuilt(this, k, value);
          else if (this.previews.list) return value;
          this.parsed.set(p, value);
        }
        return value;
      }
      default: return undefined;
    }
  }

  /**
   * What a condition sees at index k: a number, boolean or null as itself (no preview object is
   * made: a conditional continue asks this once per hit), anything else as its Value. A float
   * with a whole value (2.0, -0.0) goes as its Value: as a bare JS number conditions.js would take
   * it for an int (`xs[2.0]` raises in Python).
   * @param {number} k
   */
  runtime(k) {
    switch (this.kinds[k]) {
      case INT: return this.numbers[k];
      case FLOAT: {
        const x = this.numbers[k];
        return Number.isInteger(x) || Object.is(x, -0) ? this.get(k) : x;
      }
      case BOOL: return this.numbers[k] !== 0;
      case NONE: return null;
      default: return this.get(k);
    }
  }

  /**
   * The number an int, float or bool value holds (a bool as 0/1), or undefined for any other kind:
   * what a comparison with a number literal needs, without the condition evaluator.
   * @param {number} k
   */
  number(k) {
    const kind = this.kinds[k];
    return kind === INT || kind === FLOAT || kind === BOOL ? this.numbers[k] : undefined;
  }

  /** What crosses from the worker to the page (typed arrays are transferred). */
  parts() {
    return { kinds: this.kinds, numbers: this.numbers, previews: this.previews, slot: this.slot };
  }

  /** @param {{kinds: Uint8Array, numbers: Float64Array, previews: any, slot: Int32Array}} parts */
  static revive(parts) {
    const table = Object.create(ValueTable.prototype);
    Object.assign(table, parts, { parsed: new Map() });
    return table;
  }
}

/** Check the fields that say what a document is. @param {any} trace */
export function validateHeader(trace) {
  if (trace === null || typeof trace !== "object" || Array.isArray(trace)) {
    throw new Error("Not a Stepwise trace: expected a JSON object");
  }
  if (trace.format !== "stepwise-trace") {
    throw new Error(`Not a Stepwise trace: format is ${JSON.stringify(trace.format)} (expected "stepwise-trace")`);
  }
  if (trace.version !== 3) {
    throw new Error(`Unsupported Stepwise trace version ${JSON.stringify(trace.version)} (this page reads version 3)`);
  }
}

/**
 * Each delta's frame: its event's (the recorder writes a delta at an event of the frame it is about),
 * so the packed form does not carry it. A delta outside the event table gets 0 here and is refused,
 * with its place, where the locals are indexed (`locals-index.js`).
 * @param {Int32Array} eventFrame @param {Int32Array} deltaEvent
 */
function eventFrames(eventFrame, deltaEvent) {
  const frame = new Int32Array(deltaEvent.length);
  for (let p = 0; p < deltaEvent.length; p++) frame[p] = eventFrame[deltaEvent[p]];
  return frame;
}

/**
 * The packed form as the worker received it from Python.
 * @param {{header: string, previews: string, columns: Record<string, Uint8Array>}} packed
 * @returns {TraceColumns}
 */
export function fromPacked(packed) {
  const header = JSON.parse(packed.header);
  validateHeader(header);
  if (header.packed !== PACKED_FORM) {   // a page and a worker of two builds (one of them cached)
    fail(`packed trace form ${JSON.stringify(header.packed)} (this page reads ${PACKED_FORM}): reload the page`);
  }
  const col = packed.columns;
  /** @param {string} name */
  const bytes = (name) => {
    const b = col[name];
    if (!(b instanceof Uint8Array)) fail(`column "${name}" is missing`);
    return b;
  };
  /** @param {string} name */
  const ints = (name) => {
    const b = bytes(name);
    if (b.byteLength % 4) fail(`column "${name}" is not whole 4-byte ints`);
    return b.byteOffset % 4 ? new Int32Array(b.slice().buffer) : new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  };
  const numbersBytes = bytes("value_number");
  const numbers = numbersBytes.byteOffset % 8 ? new Float64Array(numbersBytes.slice().buffer)
    : new Float64Array(numbersBytes.buffer, numbersBytes.byteOffset, numbersBytes.byteLength / 8);
  const kinds = bytes("value_kind");
  if (numbers.length !== kinds.length) fail("value_kind and value_number differ in length");
  const { starts, ends } = splitJsonList(packed.previews);
  const events = { kind: bytes("kind"), line: ints("line"), frame: ints("frame") };
  const deltaEvent = ints("delta_event");
  const columns = {
    header,
    frames: { id: ints("frame_id"), parent: ints("frame_parent"), line: ints("frame_line"), fn: ints("frame_function") },
    functions: header.functions,
    events,
    deltas: { event: deltaEvent, frame: eventFrames(events.frame, deltaEvent), full: bytes("delta_full"), sets: ints("delta_sets") },
    sets: { name: ints("set_name"), value: ints("set_value") },
    names: header.names,
    deleted: header.deleted ?? [],
    values: new ValueTable(kinds, numbers, { text: packed.previews, starts, ends }),
    returns: { event: ints("return_event"), value: ints("return_value") },
    exceptions: header.exceptions ?? [],
    helpers: header.helpers ?? [],
    closures: header.closures ?? [],
    stdout: header.stdout ?? [],
    gap: header.gap ?? null,
  };
  for (const key of ["names", "functions", "deleted", "exceptions", "helpers", "closures", "stdout"]) {
    if (!Array.isArray(columns[key])) fail(`"${key}" must be a list`);
  }
  return columns;
}

/**
 * The JSON document read into columns, checking
 * each field with a message that says what is wrong.
 * @param {any} trace
 * @returns {TraceColumns}
 */
export function fromDocument(trace) {
  validateHeader(trace);
  if (!Array.isArray(trace.values)) fail('"values" must be a list');
  /** @type {Value[]} */
  const previews = trace.values;
  /** A value index as the document gives it, checked. */
  const ref = (v) => (isInt(v) && v >= 0 && v < previews.length ? v : fail(`value index ${JSON.stringify(v)} is outside "values"`));
  const { frames, functions } = framesOf(trace.frames);
  const events = eventsOf(trace.events);
  const n = events.kind.length;
  const { deltas, sets, names, deleted } = deltasOf(trace.locals ?? [], n, ref);
  const returns = returnsOf(trace.returns ?? [], n, ref);
  const kinds = new Uint8Array(previews.length); // all PREVIEW
  return {
    header: trace,
    frames,
    functions,
    events,
    deltas,
    sets,
    names,
    deleted,
    values: new ValueTable(kinds, new Float64Array(previews.length), { list: previews }),
    returns,
    exceptions: trace.exceptions ?? [],
    helpers: trace.helpers ?? [],
    closures: trace.closures ?? [],
    stdout: trace.stdout ?? [],
    gap: trace.gap ?? null,
  };
}

/** The document's frames as columns, and the function names they refer to. @param {any} frames */
function framesOf(frames) {
  if (!Array.isArray(frames)) fail('"frames" must be a list');
  const F = frames.length;
  const fcols = { id: new Int32Array(F), parent: new Int32Array(F), line: new Int32Array(F), fn: new Int32Array(F) };
  const functions = [], functionIds = new Map();
  for (let f = 0; f < F; f++) {
    const fr = frames[f];
    if (!fr || !isInt(fr.id) || fr.id < 0) fail(`frames[${f}].id must be a non-negative integer`);
    fcols.id[f] = fr.id;
    if (fr.parent === null || fr.parent === undefined) fcols.parent[f] = -1;
    else if (!isInt(fr.parent) || fr.parent < 0) fail(`frame ${fr.id} has unknown parent ${fr.parent}`);
    else fcols.parent[f] = fr.parent;
    fcols.line[f] = isInt(fr.line) ? fr.line : 0;
    let id = functionIds.get(fr.function);
    if (id === undefined) functionIds.set(fr.function, (id = functions.push(String(fr.function)) - 1));
    fcols.fn[f] = id;
  }
  return { frames: fcols, functions };
}

/** The document's event table as typed columns. @param {any} events */
function eventsOf(events) {
  if (!events || typeof events.kind !== "string") fail('"events.kind" must be a string');
  const n = events.kind.length;
  if (!Array.isArray(events.line) || events.line.length !== n) fail(`events.line must have ${n} entries (one per events.kind)`);
  if (!Array.isArray(events.frame) || events.frame.length !== n) fail(`events.frame must have ${n} entries (one per events.kind)`);
  const kind = new Uint8Array(n), line = new Int32Array(n), frame = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = events.kind.charCodeAt(i);
    if (!KIND_CHARS.has(c)) fail(`events.kind[${i}] is '${events.kind[i]}' (expected c, l, r or x)`);
    kind[i] = c;
    const ln = events.line[i];
    if (!(ln >= 0) || ln > 0x7fffffff) fail(`events.line[${i}] is not a line number`);
    line[i] = ln;
    const fid = events.frame[i];
    if (!isInt(fid) || fid < 0 || fid > 0x7fffffff) fail(`events.frame[${i}] refers to unknown frame ${fid}`);
    frame[i] = fid;
  }
  return { kind, line, frame };
}

/**
 * The document's locals deltas as columns over `n` events; `ref` checks a value index.
 * @param {any} locals @param {number} n @param {(v: any) => number} ref
 */
function deltasOf(locals, n, ref) {
  if (!Array.isArray(locals)) fail('"locals" must be a list');
  // The contract says sorted by event index; tolerate a writer that is not (stable sort).
  for (let p = 0, prev = -1; p < locals.length; p++) {
    const d = locals[p];
    if (!d || !isInt(d.i) || d.i < 0 || d.i >= n) fail(`locals[${p}].i is not an event index`);
    if (d.i < prev) {
      locals = locals.slice().sort((x, y) => x.i - y.i);
      break;
    }
    prev = d.i;
  }
  const D = locals.length;
  const deltas = { event: new Int32Array(D), frame: new Int32Array(D), full: new Uint8Array(D), sets: new Int32Array(D) };
  const names = [], nameIds = new Map();
  const setName = [], setValue = [];
  /** @type {[number, string][]} */
  const deleted = [];
  const nameId = (name) => {
    let id = nameIds.get(name);
    if (id === undefined) nameIds.set(name, (id = names.push(name) - 1));
    return id;
  };
  for (let p = 0; p < D; p++) {
    const d = locals[p];
    if (!isInt(d.f)) fail(`locals[${p}].f refers to unknown frame ${d.f}`);
    deltas.event[p] = d.i;
    deltas.frame[p] = d.f;
    deltas.full[p] = d.full ? 1 : 0;
    let count = 0;
    if (d.set) {
      for (const name in d.set) {
        setName.push(nameId(name));
        setValue.push(ref(d.set[name]));
        count++;
      }
    }
    deltas.sets[p] = count;
    if (d.del) for (const name of d.del) deleted.push([p, name]);
  }
  return { deltas, sets: { name: Int32Array.from(setName), value: Int32Array.from(setValue) }, names, deleted };
}

/** The document's returns as columns. @param {any} returns @param {number} n @param {(v: any) => number} ref */
function returnsOf(returns, n, ref) {
  if (!Array.isArray(returns)) fail('"returns" must be a list');
  const rcols = { event: new Int32Array(returns.length), value: new Int32Array(returns.length) };
  for (let j = 0; j < returns.length; j++) {
    const e = returns[j];
    if (!Array.isArray(e) || !isInt(e[0]) || e[0] < 0 || e[0] >= n) fail(`returns[${j}] must be [event, value] with a valid event`);
    rcols.event[j] = e[0];
    rcols.value[j] = ref(e[1]);
  }
  return rcols;
}
