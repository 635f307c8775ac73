// Where the memory picture puts each object: a cell (row, column) of a grid, laid out as Python Tutor
// does: each object a frame holds starts a row of its own, and what an object holds goes one column to the
// right — its first object in the same row, the next ones in the rows below — so a linked list reads
// left to right and a tree spreads down. A chain deeper than MAX_COLUMNS goes on in a fresh row.
//
// Stable while stepping: an object drawn in the picture before keeps its cell; only new objects are
// placed, in cells left free. Rows and columns left empty by objects that died are closed up, so an
// object moves only when a whole row above it or a whole column left of it is gone. Pure data in, data
// out: no DOM here (tests/js/memory-layout.test.mjs).

/** Columns a chain fills before it goes on in a fresh row. */
export const MAX_COLUMNS = 8;

/** @typedef {[number, number]} Cell  row, column (from 0) */

/** Does this preview node stand for an object of its own (it has a number)? */
export const isObject = (value) => value !== null && typeof value === "object" && Number.isInteger(value.id);

/** The previews an object's node holds, in the order they are shown: items, entry keys and values, fields. */
export function* heldBy(node) {
  for (const item of node.items ?? []) yield item;
  for (const [key, value] of node.entries ?? []) { yield key; yield value; }
  for (const [, value] of node.fields ?? []) yield value;
}

/**
 * The objects to draw, in depth-first order from the roots: what one object holds right after it.
 * @param {any[]} roots  the values the frames hold (outermost frame first), then the returned value
 * @param {Map<number, any>} objects  every object reached, by number (objectsReached)
 * @returns {number[]}
 */
export function drawingOrder(roots, objects) {
  /** @type {Set<number>} */
  const order = new Set();
  const visit = (value) => {
    if (!isObject(value) || order.has(value.id) || !objects.has(value.id)) return;
    order.add(value.id);
    for (const part of heldBy(objects.get(value.id))) visit(part);
  };
  for (const root of roots) visit(root);
  return [...order];
}

/**
 * The cell of every object drawn.
 * @param {any[]} roots  as for drawingOrder
 * @param {Map<number, any>} objects  every object reached, by number
 * @param {Set<number>} drawn  the numbers drawn (the first ones of drawingOrder, up to the picture's cap)
 * @param {Map<number, Cell>} [previous]  the cells of the picture drawn before, kept where still drawn
 * @returns {Map<number, Cell>}  by number, rows and columns closed up
 */
export function placeObjects(roots, objects, drawn, previous = new Map()) {
  /** @type {Map<number, Cell>} */
  const cells = new Map();
  /** @type {Set<string>} */
  const taken = new Set();
  /** @type {Map<number, number>} cells taken per row */
  const perRow = new Map();
  const take = (id, row, column) => {
    cells.set(id, [row, column]);
    taken.add(`${row},${column}`);
    perRow.set(row, (perRow.get(row) ?? 0) + 1);
  };
  for (const id of drawn) {
    const cell = previous.get(id);
    if (cell) take(id, cell[0], cell[1]);
  }
  const emptyRow = () => { let row = 0; while (perRow.has(row)) row++; return row; };
  const freeBelow = (row, column) => { while (taken.has(`${row},${column}`)) row++; return row; };
  /** @type {Set<number>} */
  const seen = new Set();
  const visit = (value, row, column) => {
    if (!isObject(value) || !drawn.has(value.id) || seen.has(value.id)) return;
    seen.add(value.id);
    if (!cells.has(value.id)) {
      if (column >= MAX_COLUMNS) { row = emptyRow(); column = 1; }
      take(value.id, row < 0 ? emptyRow() : freeBelow(row, column), column);
    }
    const [at, from] = /** @type {Cell} */ (cells.get(value.id));
    for (const part of heldBy(objects.get(value.id))) visit(part, at, from + 1);
  };
  for (const root of roots) visit(root, -1, 0);
  return closedUp(cells);
}

/**
 * The same cells with empty rows and columns taken out (the order of what is left kept).
 * @param {Map<number, Cell>} cells
 * @returns {Map<number, Cell>}
 */
function closedUp(cells) {
  const rank = (values) => new Map([...new Set(values)].sort((a, b) => a - b).map((value, n) => [value, n]));
  const rows = rank([...cells.values()].map(([row]) => row));
  const columns = rank([...cells.values()].map(([, column]) => column));
  return new Map([...cells].map(([id, [row, column]]) => [id, /** @type {Cell} */ ([rows.get(row), columns.get(column)])]));
}

/**
 * The box a keyboard's arrow key moves to from `from`: the nearest cell that way (same row or column
 * first), or undefined at the picture's edge.
 * @param {Map<number, Cell>} cells
 * @param {number} from
 * @param {"ArrowLeft"|"ArrowRight"|"ArrowUp"|"ArrowDown"} key
 * @returns {number|undefined}
 */
export function neighbour(cells, from, key) {
  const [row, column] = /** @type {Cell} */ (cells.get(from));
  const [along, across] = key === "ArrowLeft" || key === "ArrowRight" ? [1, 0] : [0, 1];
  const sign = key === "ArrowRight" || key === "ArrowDown" ? 1 : -1;
  let best, bestScore = Infinity;
  for (const [id, cell] of cells) {
    const ahead = (cell[along] - [row, column][along]) * sign;
    if (ahead <= 0) continue;
    const score = Math.abs(cell[across] - [row, column][across]) * 1000 + ahead;
    if (score < bestScore) { best = id; bestScore = score; }
  }
  return best;
}
