// When a probe run is stuck (py/steptrace/worker_watch.py): its count of events, read from shared memory,
// has reached the count the terminated run had and stood still for STUCK_MS. One rule for both hosts that
// bring a terminated run back: the page (worker-client.js) and the build's proof (prove-cases.mjs).

export const STUCK_MS = 300;
const POLL_MS = 50;

/**
 * Look at `progress[0]` every POLL_MS while `watching()` says so; once it is at least `from` and has not
 * moved for STUCK_MS, call `stuck(count)` (once). Each timer set is pushed onto `timers` (the caller
 * clears them when the run ends another way).
 * @param {{progress: Int32Array, from: number, timers: number[], watching?: () => boolean,
 *          stuck: (count: number) => void}} options
 */
export function watchStuckProbe({ progress, from, timers, watching = () => true, stuck }) {
  let last = -1;
  let since = performance.now();
  const look = () => {
    if (!watching()) return;
    const count = Atomics.load(progress, 0);
    const now = performance.now();
    if (count !== last) [last, since] = [count, now];
    else if (count >= from && now - since >= STUCK_MS) return stuck(count);
    timers.push(setTimeout(look, POLL_MS));
  };
  timers.push(setTimeout(look, POLL_MS));
}
