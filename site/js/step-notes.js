// Step notes: what an author pinned to a line or a stage of the shown function (scenario file `notes`,
// py/stepwise/pins.py), shown beside the code while the cursor is there, as Python Tutor's annotation
// bubbles were. A line's note shows while the shown function's frame is paused on that line; a stage's,
// anywhere in that stage (the diagram's current stage).

/**
 * @typedef {{line: number, zh: string, en: string, stage?: boolean}} Note
 * @typedef {import("./debugger.js").Debugger} Debugger
 */

/**
 * The line the shown function's own frame is on at the cursor (its innermost frame of that code), or null:
 * not paused, or the function is not running.
 * @param {Debugger} widget
 * @returns {number|null}
 */
export function ownLine(widget) {
  const position = widget.replay?.position();
  if (!position || position.finished || widget.state !== "paused") return null;
  return ownLineAt(widget.replay, widget.fn, position.index);
}

/**
 * The line the innermost frame running `fn`'s code (its `def` within first_line..last_line) is on at event i.
 * @param {any} replay @param {{first_line: number, last_line: number}} fn @param {number} i
 * @returns {number|null}
 */
export function ownLineAt(replay, { first_line: first, last_line: last }, i) {
  const own = replay.stackAt(i).findLast((frame) => frame.def >= first && frame.def <= last);
  return own?.line ?? null;
}

/**
 * The notes that apply when the shown function is on `line`: the line's own, then its stage's.
 * @param {Note[]} notes @param {{line: number}[]} stages @param {number|null} line
 * @returns {Note[]}
 */
export function notesAt(notes, stages, line) {
  if (line == null) return [];
  const stage = stages.filter((s) => s.line <= line).at(-1)?.line;
  return notes.filter((note) => (note.stage ? note.line === stage : note.line === line));
}

/** Show the function's step notes in `widget` as its cursor moves and its language changes. @param {Debugger} widget */
export function attachStepNotes(widget) {
  const notes = widget.fn.notes ?? [];
  const box = /** @type {HTMLElement|null} */ (widget.root.querySelector(".step-note"));
  if (!box || !notes.length) return;
  const show = () => {
    const shown = notesAt(notes, widget.fn.stages ?? [], ownLine(widget));
    box.hidden = !shown.length;
    box.replaceChildren(...shown.map((note) => {
      const item = document.createElement("p");
      const where = document.createElement("span");
      where.className = "step-note-where";
      where.textContent = widget.t(note.stage ? "note_stage" : "note_line", { line: note.line });
      item.append(where, " ", note[widget.i18n.lang] ?? note.zh);
      return item;
    }));
  };
  widget.addEventListener("moved", show);
  widget.addEventListener("change", show);   // a new case, an edit, a run: no trace, no note
  widget.i18n.addEventListener("change", show);
}
