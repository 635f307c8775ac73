// What a page built on lesson.js adds to it: the playground (play.js) sets these before lesson.js runs
// (play.js imports its own module first, then lesson.js; modules run in that order), and lesson.js calls
// them where a lesson page has nothing more to do.
export const hooks = {
  /** @type {null | ((debuggers: Map<string, any>) => void)} once, when the debuggers are made */
  start: null,
  /** @type {null | ((params: URLSearchParams, widget: any) => Promise<void>)} a link's own keys, read before
   * its breakpoints are set (they may name lines that only its code has) */
  restore: null,
  /** @type {null | ((params: URLSearchParams, widget: any) => void)} the page's own keys, written into the link */
  save: null,
  /** @type {string[]} the link keys `restore` and `save` use */
  keys: [],
};
