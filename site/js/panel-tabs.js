// A phone shows one panel at a time (WAI-ARIA tabs): the reader picks Variables, Watch, Memory, ...
// from a tab row that stays under the toolbar, instead of scrolling past every panel to reach one.
// Wider screens show every panel and no tabs (site.css); the choice is kept either way.

/**
 * @param {HTMLElement} root the debugger
 * @param {(name: string) => void} [onSelect] told of the panel chosen
 */
export function bindPanelTabs(root, onSelect = () => {}) {
  const list = root.querySelector(".panel-tabs");
  if (!list) return;
  const tabs = /** @type {HTMLButtonElement[]} */ ([...list.querySelectorAll("[role=tab]")]);
  const select = (tab, focus) => {
    for (const other of tabs) {
      const chosen = other === tab;
      other.setAttribute("aria-selected", String(chosen));
      other.tabIndex = chosen ? 0 : -1;
      root.querySelector(`.panel[data-tab="${other.dataset.tab}"]`)?.classList.toggle("is-tab", chosen);
    }
    if (focus) tab.focus();
    onSelect(tab.dataset.tab);
  };
  // The tab row sticks just under the (sticky) toolbar, whatever height its wrapped buttons take.
  const toolbar = /** @type {HTMLElement|null} */ (root.querySelector(".toolbar"));
  if (toolbar) new ResizeObserver(() => root.style.setProperty("--toolbar-height", `${toolbar.offsetHeight}px`)).observe(toolbar);
  select(tabs.find((tab) => tab.getAttribute("aria-selected") === "true") ?? tabs[0], false);
  list.addEventListener("click", (event) => {
    const tab = /** @type {Element} */ (event.target).closest("[role=tab]");
    if (tab) select(tab, false);
  });
  list.addEventListener("keydown", (/** @type {KeyboardEvent} */ event) => {
    const at = tabs.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[(next + tabs.length) % tabs.length], true);
  });
}
