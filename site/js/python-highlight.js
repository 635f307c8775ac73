// Python highlighting for the reader's edit boxes: a small tokenizer that emits the same token
// classes Pygments gives the shown source (build.py pygments_css, at the end of site.css), so both
// read alike. Text goes in through textContent only: whatever the reader types is never markup.

const KEYWORDS = new Set(["and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
  "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
  "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match", "case"]);
const CONSTANTS = new Set(["True", "False", "None"]);
const WORD_OPERATORS = new Set(["and", "or", "not", "in", "is"]);
const BUILTINS = new Set(["print", "len", "range", "list", "dict", "set", "tuple", "str", "int", "float", "bool",
  "type", "isinstance", "sorted", "min", "max", "sum", "enumerate", "zip", "map", "filter", "open", "repr",
  "any", "all", "abs", "round", "reversed", "iter", "next", "super", "object", "Exception", "ValueError",
  "TypeError", "KeyError", "OSError", "RuntimeError"]);

// One alternation, tried in order at each position: comments, strings (triple first), numbers, names.
const TOKEN = /(#[^\n]*)|([rRbBuUfF]{0,2}(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?))|(\b\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?j?\b)|([A-Za-z_\u00c0-\uffff][\w\u00c0-\uffff]*)/gu;

/**
 * @param {string} text Python source
 * @returns {DocumentFragment} text nodes and <span class="…"> tokens
 */
export function highlightPython(text) {
  const out = document.createDocumentFragment();
  let last = 0;
  let previous = "";
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) out.append(text.slice(last, match.index));
    const [token, comment, string, number, name] = match;
    let css = "";
    if (comment) css = "c1";
    else if (string) css = "s";
    else if (number) css = "mi";
    else if (name) {
      if (CONSTANTS.has(name)) css = "kc";
      else if (WORD_OPERATORS.has(name)) css = "ow";
      else if (KEYWORDS.has(name)) css = "k";
      else if (previous === "def") css = "nf";
      else if (previous === "class") css = "nc";
      else if (BUILTINS.has(name)) css = "nb";
      previous = name;
    }
    if (css) {
      const span = document.createElement("span");
      span.className = css;
      span.textContent = token;
      out.append(span);
    } else out.append(token);
    last = match.index + token.length;
  }
  if (last < text.length) out.append(text.slice(last));
  return out;
}
