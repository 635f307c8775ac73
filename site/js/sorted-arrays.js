// Binary searches over sorted Int32Arrays, and their amortised growth: what every index of the
// replay engine is made of (a million events, each query a search, never a scan).

/**
 * First position p in [lo, hi) with a[p] > x, or hi.
 * @param {ArrayLike<number>} a @param {number} lo @param {number} hi @param {number} x
 */
export function firstGreater(a, lo, hi, x) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Last position p in [lo, hi) with a[p] <= x, or lo - 1.
 * @param {ArrayLike<number>} a @param {number} lo @param {number} hi @param {number} x
 */
export function lastAtMost(a, lo, hi, x) {
  return firstGreater(a, lo, hi, x) - 1;
}

/**
 * Last position p in [lo, hi) with key[list[p]] <= x, or lo - 1 (list sorted by key).
 * @param {ArrayLike<number>} key @param {ArrayLike<number>} list
 * @param {number} lo @param {number} hi @param {number} x
 */
export function lastAtMostBy(key, list, lo, hi, x) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key[list[mid]] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

/**
 * A typed array twice as long with the same contents; the new half holds `fillWith`.
 * @param {Int32Array} a @param {number} [fillWith]
 */
export function grow(a, fillWith = 0) {
  const b = new Int32Array(a.length * 2);
  if (fillWith !== 0) b.fill(fillWith);
  b.set(a);
  return b;
}

/**
 * Prefix sums in place: counts[f + 1] held f's count; afterwards counts[f] is where f's run starts
 * in a compressed (CSR) list and counts[F] the list's length.
 * @param {Int32Array} counts
 */
export function prefixSums(counts) {
  for (let f = 0; f + 1 < counts.length; f++) counts[f + 1] += counts[f];
  return counts;
}
