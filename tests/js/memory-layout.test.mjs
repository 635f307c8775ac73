// Where the memory picture puts its objects (site/js/memory-layout.js): Python Tutor's rows for linked
// lists, trees and shared objects, and stability while stepping, checked on hand-made pictures and on
// seeded random object graphs changed step by step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawingOrder, MAX_COLUMNS, neighbour, placeObjects } from '../../site/js/memory-layout.js';

/** A preview node of an object holding `to` (numbers of other objects) as fields next/left/right… */
const obj = (id, ...to) => ({ t: 'Node', id, fields: to.map((n, k) => [`f${k}`, ref(n)]) });
const ref = (n) => ({ t: 'Node', id: n, r: '…' });   // a reference as a preview holds it

/** Lay out one step: `graph` maps a number to the numbers it holds; `names` the frame's references. */
function layout(graph, names, previous) {
  const objects = new Map([...graph].map(([id, to]) => [id, obj(id, ...to)]));
  const roots = names.map(ref);
  const order = drawingOrder(roots, objects);
  return placeObjects(roots, objects, new Set(order), previous);
}

const cellOf = (cells, id) => cells.get(id).join(',');

test('a linked list reads left to right in one row, and goes on in a fresh row past the columns', () => {
  const length = MAX_COLUMNS + 3;
  const graph = new Map(Array.from({ length }, (_, k) => [k + 1, k + 1 < length ? [k + 2] : []]));
  const cells = layout(graph, [1]);
  for (let k = 1; k <= MAX_COLUMNS; k++) assert.deepEqual(cells.get(k), [0, k - 1]);
  assert.deepEqual(cells.get(MAX_COLUMNS + 1), [1, 1], 'the chain goes on, one column in');
  assert.deepEqual(cells.get(MAX_COLUMNS + 2), [1, 2]);
});

test('a tree: children one column right, the first beside its parent, the next below', () => {
  // 1 -> 2, 3 ; 2 -> 4, 5 ; 3 -> 6
  const graph = new Map([[1, [2, 3]], [2, [4, 5]], [3, [6]], [4, []], [5, []], [6, []]]);
  const cells = layout(graph, [1]);
  assert.deepEqual(Object.fromEntries(cells), {
    1: [0, 0], 2: [0, 1], 4: [0, 2], 5: [1, 2], 3: [1, 1], 6: [2, 2],
  });
});

test('each name a frame holds starts its own row; a shared object is placed once', () => {
  const graph = new Map([[1, [3]], [2, [3]], [3, []]]);
  const cells = layout(graph, [1, 2]);
  assert.equal(cells.size, 3);
  assert.deepEqual(cells.get(1), [0, 0]);
  assert.deepEqual(cells.get(3), [0, 1]);
  assert.deepEqual(cells.get(2), [1, 0]);
});

test('an object keeps its cell while it lives; rows left empty close up', () => {
  const first = layout(new Map([[1, [2]], [2, []], [5, []]]), [1, 5]);
  assert.deepEqual(first.get(5), [1, 0]);
  // A new list made above in the frame's order does not push the old ones about.
  const second = layout(new Map([[1, [2]], [2, []], [5, []], [9, []]]), [9, 1, 5], first);
  assert.deepEqual([second.get(1), second.get(2), second.get(5)], [first.get(1), first.get(2), first.get(5)]);
  assert.deepEqual(second.get(9), [2, 0]);
  // The first row's objects die: the others move up a row, no further.
  const third = layout(new Map([[5, []], [9, []]]), [9, 5], second);
  assert.deepEqual([third.get(5), third.get(9)], [[0, 0], [1, 0]]);
});

test('arrow keys go to the nearest box that way, none past the edge', () => {
  const graph = new Map([[1, [2, 3]], [2, []], [3, []], [7, []]]);
  const cells = layout(graph, [1, 7]);   // 1 (0,0) -> 2 (0,1), 3 (1,1); 7 (2,0)
  assert.equal(neighbour(cells, 1, 'ArrowRight'), 2);
  assert.equal(neighbour(cells, 2, 'ArrowDown'), 3);
  assert.equal(neighbour(cells, 3, 'ArrowLeft'), 1);
  assert.equal(neighbour(cells, 1, 'ArrowDown'), 7);
  assert.equal(neighbour(cells, 2, 'ArrowRight'), undefined);
  assert.equal(neighbour(cells, 1, 'ArrowUp'), undefined);
});

/** A seeded generator (mulberry32): the same graphs on every machine. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

test('random graphs changed step by step: one object a cell, no cell shared, order kept, grid closed up', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const next = random(seed);
    const pick = (list) => list[Math.floor(next() * list.length)];
    /** @type {Map<number, number[]>} */
    const graph = new Map([[1, []]]);
    let names = [1], made = 1, cells;
    for (let step = 0; step < 60; step++) {
      const ids = [...graph.keys()];
      const roll = next();
      if (roll < 0.35) {               // a new object, held by a name or by an object
        graph.set(++made, []);
        if (next() < 0.4) names = [...names, made];
        else graph.get(pick(ids)).push(made);
      } else if (roll < 0.55) {        // a new reference between objects (cycles too)
        graph.get(pick(ids)).push(pick(ids));
      } else if (roll < 0.75) {        // a reference dropped
        const holder = graph.get(pick(ids));
        holder.splice(Math.floor(next() * holder.length), 1);
      } else if (roll < 0.85 && names.length > 1) {
        names = names.filter((name) => name !== pick(names));
      }
      const before = cells;
      cells = layout(graph, names, before);
      const reached = new Set(drawingOrder(names.map(ref), new Map([...graph].map(([id, to]) => [id, obj(id, ...to)]))));
      assert.deepEqual(new Set(cells.keys()), reached, `seed ${seed} step ${step}: every object reached is placed`);
      const used = [...cells.values()].map((cell) => cell.join(','));
      assert.equal(new Set(used).size, used.length, `seed ${seed} step ${step}: two objects in one cell`);
      for (const axis of [0, 1]) {
        const values = new Set([...cells.values()].map((cell) => cell[axis]));
        assert.deepEqual([...values].sort((a, b) => a - b), [...values.keys()].map((_, n) => n),
          `seed ${seed} step ${step}: an empty ${axis ? 'column' : 'row'} was left`);
      }
      if (!before) continue;
      const both = [...cells.keys()].filter((id) => before.has(id));
      for (const a of both) for (const b of both) for (const axis of [0, 1]) {
        const was = Math.sign(before.get(a)[axis] - before.get(b)[axis]);
        assert.equal(Math.sign(cells.get(a)[axis] - cells.get(b)[axis]), was,
          `seed ${seed} step ${step}: ${a} and ${b} changed places (${cellOf(before, a)} ${cellOf(before, b)} → ${cellOf(cells, a)} ${cellOf(cells, b)})`);
      }
      if (both.length === before.size) {   // nothing died: nothing moved
        for (const id of both) assert.deepEqual(cells.get(id), before.get(id), `seed ${seed} step ${step}: ${id} moved`);
      }
    }
  }
});
