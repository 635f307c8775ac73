// The playground's own part (play.js runs it before lesson.js): a CodeMirror editor holding the reader's
// program, an input box for input(), an optional call to make after the module (`main()`), a time limit,
// and the link keys that carry them. The debugger `main`
// (lesson.js) then runs whatever the editor holds as a whole program (py/steptrace/whole_program.py).
import { EditorView, basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { setDiagnostics } from "@codemirror/lint";
import { StateEffect } from "@codemirror/state";
import { GutterMarker, gutter } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { hooks } from "./page-hooks.js";

const NAME = "main";
const SHOWN_AFTER_MS = 250;   // the debugger's code pane follows the editor once typing pauses
const data = JSON.parse(document.getElementById("lesson-data").textContent);
const strings = JSON.parse(document.getElementById("i18n-data").textContent);
const host = /** @type {HTMLElement} */ (document.querySelector(".play-editor"));
const stdinBox = /** @type {HTMLTextAreaElement} */ (document.querySelector("textarea[name=stdin]"));
const secondsBox = /** @type {HTMLInputElement} */ (document.querySelector("input[name=seconds]"));
const callBox = /** @type {HTMLInputElement} */ (document.querySelector("input[name=call]"));
const note = /** @type {HTMLElement} */ (document.querySelector(".play-note"));

/** The program as a link carries it: raw deflate, then base64url (stepwise.playground packs the examples alike). */
export async function packCode(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The program a link carries, or null when its `code` is not one. */
export async function unpackCode(packed) {
  try {
    const binary = atob(packed.replaceAll("-", "+").replaceAll("_", "/"));
    const stream = new Blob([Uint8Array.from(binary, (c) => c.charCodeAt(0))]).stream()
      .pipeThrough(new DecompressionStream("deflate-raw"));
    return await new Response(stream).text();
  } catch {
    return null;
  }
}

let widget = null;     // the debugger `main`, once lesson.js has made it
let packed = "";       // the editor's program, packed for the link (packing is asynchronous; the link is not)
let shownTimer = 0;
let shown = null;      // the text the debugger's code pane shows

class BreakpointMarker extends GutterMarker {
  toDOM() {
    const dot = document.createElement("span");
    dot.className = "play-bp";
    dot.textContent = "●";
    return dot;
  }
}
const marker = new BreakpointMarker();
const breakpointsChanged = StateEffect.define();

// The editor's breakpoint gutter shows the debugger's breakpoints; a click there toggles one, as a click
// on a line button of the debugger's code pane does.
const breakpointGutter = gutter({
  class: "play-bp-gutter",
  lineMarker: (view, line) => (widget?.breakpoints.has(view.state.doc.lineAt(line.from).number) ? marker : null),
  lineMarkerChange: (update) => update.transactions.some((t) => t.effects.some((e) => e.is(breakpointsChanged))),
  initialSpacer: () => marker,
  domEventHandlers: {
    mousedown(view, line) {
      if (!widget) return false;
      showNow();
      widget.toggleBreakpoint(view.state.doc.lineAt(line.from).number);
      return true;
    },
  },
});

// The page's colours and fonts (site.css's custom properties reach into the shadow root).
const look = EditorView.theme({
  "&": { maxHeight: "60vh", fontSize: "14px", backgroundColor: "var(--panel)", color: "var(--fg)" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "-2px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.55" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--panel-2)", color: "var(--muted)", borderRight: "1px solid var(--line)" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--accent) 8%, transparent)" },
  ".play-bp-gutter": { width: "1.4em", cursor: "pointer" },
  ".play-bp": { color: "var(--bp)", display: "block", textAlign: "center" },
});
const tokens = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.moduleKeyword,
    tags.bool, tags.null, tags.self], color: "var(--tok-keyword)", fontWeight: "bold" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--tok-string)" },
  { tag: tags.number, color: "var(--tok-number)" },
  { tag: tags.comment, color: "var(--tok-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)], color: "var(--tok-def)" },
  { tag: tags.standard(tags.variableName), color: "var(--tok-builtin)" },
]);

// In a shadow root of its own: CodeMirror then mounts its styles as constructed style sheets, which the
// site's Content-Security-Policy (style-src 'self', no inline <style>) allows.
const shadow = host.attachShadow({ mode: "open" });
const editor = new EditorView({
  root: shadow,
  parent: shadow,
  doc: host.querySelector("code")?.textContent ?? "",
  extensions: [
    breakpointGutter, basicSetup, python(), indentUnit.of("    "), look, syntaxHighlighting(tokens),
    // A name for screen readers (and tests); `hooks.start` keeps it in the page's language (i18n.js does
    // not look inside a shadow root).
    EditorView.contentAttributes.of({ "aria-label": strings.zh.play_editor }),
    EditorView.updateListener.of((update) => {
      if (!update.docChanged) return;
      clearSyntax();
      clearTimeout(shownTimer);
      shownTimer = setTimeout(showNow, SHOWN_AFTER_MS);
    }),
  ],
});

performance.mark("stepwise-editor-ready");   // bench/playground.py: the editor takes keys from here

function program() {
  return editor.state.doc.toString();
}

/** The debugger's code pane (and its line buttons) as the editor holds the program now. */
function showNow() {
  clearTimeout(shownTimer);
  const text = program();
  if (!widget || text === shown) return;   // unchanged: the trace and the step stay
  shown = text;
  widget.showSource(text);
  packCode(text).then((done) => {
    if (program() !== text) return;
    packed = done;
    widget.dispatchEvent(new Event("change"));   // the link gains the program
  });
}

function setProgram(text) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  showNow();
}

function clearSyntax() {
  if (note.hidden) return;
  editor.dispatch(setDiagnostics(editor.state, []));
  note.hidden = true;
  note.classList.remove("traceback");
}

/** What a run's end means for the program, said beside the editor: a syntax error, marked at its line
 * (nothing ran), input() asking for a line the input box does not have, or an import of what Python's
 * standard library does not have. */
function sayEnd(trace) {
  const exception = trace?.end?.exception;
  if (note.classList.contains("traceback")) return;   // said already, with its traceback (pauseAtRaise)
  if (!exception?.in_source || !["SyntaxError", "EOFError", "ModuleNotFoundError"].includes(exception.type)) return;
  if (exception.type === "EOFError") note.textContent = widget.t("play_eof");
  else if (exception.type === "ModuleNotFoundError") note.textContent = widget.t("play_no_module", { message: exception.message });
  else {
    const line = editor.state.doc.line(Math.min(Math.max(exception.line ?? 1, 1), editor.state.doc.lines));
    editor.dispatch(setDiagnostics(editor.state, [{ from: line.from, to: line.to, severity: "error",
      message: exception.message }]));
    note.textContent = widget.t("play_syntax", { line: exception.line, message: exception.message });
  }
  note.hidden = false;
}

/** After Run, a program that ended with an uncaught exception is left paused where it was raised (the
 * first `x` of the raises and returns that end the trace), its traceback said beside the editor. */
async function pauseAtRaise() {
  const replay = widget.replay;
  const exception = widget.trace?.end?.exception;
  if (!replay || widget.trace.end.status !== "raised" || !exception?.in_source || exception.type === "SyntaxError") return;
  let raised = -1;
  for (let i = replay.eventCount - 1; i >= 0 && "xr".includes(replay.eventAt(i).kind); i--) {
    if (replay.eventAt(i).kind === "x") raised = i;
  }
  if (raised < 0) return;
  const frames = replay.stackAt(raised);
  replay.seek(raised);
  await widget.start("debug", { step: replay.position().stepNumber });
  const lines = frames.map((frame) => `  File "main.py", line ${frame.line ?? "?"}, in ${frame.function}`);
  const said = note.hidden ? "" : `${note.textContent}\n\n`;   // sayEnd's plain words first, if any
  note.textContent = said + ["Traceback (most recent call last):", ...lines,
    `${exception.type}: ${exception.message}`].join("\n");
  note.classList.add("traceback");
  note.hidden = false;
}

function seconds() {
  const value = Number(secondsBox.value);
  return Math.min(Math.max(Number.isFinite(value) ? value : 0, 0.5), data.play.maxSeconds);
}

hooks.keys = ["code", "stdin", "call", "seconds"];

hooks.start = (debuggers) => {
  widget = debuggers.get(NAME);
  const limits = widget.fn.limits;
  const grace = limits.deadlineMs - limits.timeLimit * 1000;
  widget.runRequest = () => {
    const chosen = seconds();
    widget.fn.limits = { ...limits, timeLimit: chosen, deadlineMs: chosen * 1000 + grace };
    return { source: data.functions[NAME].source, function: NAME, case: widget.caseId,
      limits: widget.fn.limits, program: { text: program(), stdin: stdinBox.value, call: callBox.value.trim() } };
  };
  // A move right after typing runs what the editor holds: the code pane catches up first.
  const act = widget.act.bind(widget);
  widget.act = async (action, ...rest) => {
    showNow();
    const done = await act(action, ...rest);
    if (action === "run") await pauseAtRaise();
    return done;
  };
  widget.addEventListener("change", () => {
    editor.dispatch({ effects: breakpointsChanged.of(null) });
    sayEnd(widget.trace);
  });
  const label = () => editor.contentDOM.setAttribute("aria-label", widget.t("play_editor"));
  widget.i18n.addEventListener("change", label);
  label();
  // A new input or limit is a new run.
  const again = () => {
    clearSyntax();
    shown = null;
    showNow();
  };
  stdinBox.addEventListener("input", again);
  secondsBox.addEventListener("change", again);
  callBox.addEventListener("change", again);
  if (!new URLSearchParams(location.hash.slice(1)).has("code")) showNow();
};

hooks.restore = async (params) => {
  if (params.has("code")) {
    const text = await unpackCode(params.get("code"));
    for (const line of [...widget.breakpoints.keys()]) widget.breakpoints.delete(line);
    if (text === null) widget.notify(widget.t("link_bad_input"));
    else setProgram(text);
  }
  if (params.has("stdin")) stdinBox.value = params.get("stdin");
  if (params.has("call")) callBox.value = params.get("call");
  if (params.has("seconds")) secondsBox.value = String(Number(params.get("seconds")) || secondsBox.value);
};

hooks.save = (params) => {
  if (packed) params.set("code", packed);
  if (stdinBox.value) params.set("stdin", stdinBox.value);
  if (callBox.value.trim()) params.set("call", callBox.value.trim());
  if (seconds() !== data.functions[NAME].limits.timeLimit) params.set("seconds", String(seconds()));
};
