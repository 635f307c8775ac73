// zh/en strings for the page. The table comes from site/i18n.json (embedded by the builder), so the
// builder's first render and the script's later switches read the same words.

/**
 * A count with thousands grouped, as both languages write it (12,345). Not toLocaleString: its first
 * call loads the browser's locale data, 10–16 ms in the middle of a reader's first run.
 * @param {number} n
 */
export function count(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export class I18n extends EventTarget {
  /** @param {Record<string, Record<string, string>>} strings @param {"zh"|"en"} lang */
  constructor(strings, lang = "zh") {
    super();
    this.strings = strings;
    this.lang = strings[lang] ? lang : "zh";
  }

  /** @param {string} key @param {Record<string, string|number>} [values] */
  t(key, values = {}) {
    const text = this.strings[this.lang]?.[key] ?? this.strings.zh[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? `{${name}}`));
  }

  /** Switch language: document lang, static labels, then listeners re-render their own text. */
  set(lang, root = document) {
    if (!this.strings[lang]) return;
    this.lang = lang;
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    document.documentElement.dataset.lang = lang;
    for (const element of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) {
      element.textContent = this.t(element.dataset.i18n);
    }
    for (const element of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-label]"))) {
      element.setAttribute("aria-label", this.t(element.dataset.i18nLabel));
    }
    for (const element of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-zh][data-en]"))) {
      element.textContent = element.dataset[lang];
    }
    // The <title> follows the language too (it lives in <head>, outside `root` when a widget is given).
    const title = document.querySelector("title");
    if (title?.dataset.zh && title.dataset.en) title.textContent = title.dataset[lang];
    else if (title?.dataset.i18n) title.textContent = this.t(title.dataset.i18n);
    this.dispatchEvent(new CustomEvent("change", { detail: lang }));
  }
}

/** The language asked for by the URL (?lang= or #…lang=), then the last choice, then zh. */
export function initialLang() {
  const fromUrl = new URLSearchParams(location.search).get("lang")
    ?? new URLSearchParams(location.hash.slice(1)).get("lang");
  if (fromUrl === "zh" || fromUrl === "en") return fromUrl;
  try {
    const stored = localStorage.getItem("stepwise-lang");
    if (stored === "zh" || stored === "en") return stored;
  } catch { /* storage may be disabled */ }
  return "zh";
}

export function rememberLang(lang) {
  try { localStorage.setItem("stepwise-lang", lang); } catch { /* storage may be disabled */ }
}
