// A picture of an agent history: one block per message, coloured by role and kind
// (question, tool_use, tool_result, trimmed marker, error result, summary), its width
// proportional to the message's size in bytes, with the byte budget marked.
//
// It reads the recorder's bounded previews, so sizes are estimates when a string was cut:
// the preview keeps each string's full length, and its visible part sets the bytes per char.
import { count } from "./i18n.js";

const encoder = new TextEncoder();

function entry(dict, key) {
  for (const [k, v] of dict?.entries ?? []) if (k?.v === key) return v;
  return undefined;
}

/** Estimated UTF-8 bytes of the compact JSON a value stands for. */
export function estimateBytes(value) {
  if (!value) return 0;
  switch (value.t) {
    case "str": {
      const shown = value.v ?? "";
      const full = value.len ?? shown.length;
      const perChar = shown.length ? encoder.encode(JSON.stringify(shown)).length / (shown.length + 2) : 1;
      return Math.round((full + 2) * perChar);
    }
    case "list": case "tuple": {
      const items = value.items ?? [];
      const known = items.reduce((sum, item) => sum + estimateBytes(item) + 1, 1);
      const avg = items.length ? known / items.length : 2;
      return Math.round(known + (value.more ?? 0) * avg);
    }
    case "dict": {
      const entries = value.entries ?? [];
      const known = entries.reduce((sum, [k, v]) => sum + estimateBytes(k) + estimateBytes(v) + 2, 1);
      return Math.round(known + (value.more ?? 0) * (entries.length ? known / entries.length : 4));
    }
    default:
      return (value.r ?? "").length || 4;
  }
}

/** Is this value a list of message dicts (each with a `role`)? */
export function isHistory(value) {
  return value?.t === "list" && (value.items?.length ?? 0) > 0
    && value.items.every((item) => item?.t === "dict" && entry(item, "role"));
}

/**
 * Classify one message preview: [kind, detail] for colour and label. `markers` are the lesson's
 * ([history] in its scenario file): the text that starts a summary and a trimmed result.
 */
export function messageKind(message, markers = {}) {
  const role = entry(message, "role")?.v;
  const content = entry(message, "content");
  if (content?.t === "str") {
    const summary = markers.summary_marker;
    return summary && (content.v ?? "").includes(summary) ? ["summary", role] : ["question", role];
  }
  const blocks = content?.items ?? [];
  const types = blocks.map((b) => entry(b, "type")?.v);
  if (types.includes("tool_use")) {
    return ["tool_use", blocks.map((b) => entry(b, "id")?.v).filter(Boolean).join(", ")];
  }
  if (types.includes("tool_result")) {
    const ids = blocks.map((b) => entry(b, "tool_use_id")?.v).filter(Boolean).join(", ");
    if (blocks.some((b) => entry(b, "is_error")?.r === "True")) return ["error", ids];
    const trimmed = markers.trimmed_marker;
    if (trimmed && blocks.every((b) => (entry(b, "content")?.v ?? "").startsWith(trimmed))) return ["marker", ids];
    return ["tool_result", ids];
  }
  return ["text", role];
}

/** Estimated bytes of a history's messages (what its picture's width stands for). */
export function historyBytes(value) {
  return value.items.reduce((sum, message) => sum + estimateBytes(message), 0);
}

/**
 * @param {string} name the variable's name
 * @param {object} value a history preview
 * @param {number|null} budget bytes, or null when the case has none
 * @param {{summary_marker?: string, trimmed_marker?: string}} [markers] the lesson's ([history])
 * @param {(key: string, values?: object) => string} t
 * @param {number} [widest] bytes the full width stands for: the largest of the pictures shown together,
 *   so that a 620-byte history beside a 1,707-byte one is drawn about a third as wide
 */
export function renderHistory(name, value, budget, t, markers = {}, widest = 0) {
  const figure = document.createElement("figure");
  figure.className = "history-picture";
  const messages = value.items;
  const sizes = messages.map(estimateBytes);
  const total = sizes.reduce((a, b) => a + b, 0);
  const scale = Math.max(total, budget ?? 0, widest) || 1;
  const caption = document.createElement("figcaption");
  caption.textContent = `${name}: ${messages.length}${value.more ? "+" : ""} · ≈${t("bytes", { n: count(total) })}`;
  if (budget) {
    // The caption names the red budget line in the reader's language.
    const label = document.createElement("span");
    label.className = "budget-text";
    label.textContent = ` · ${t("budget", { budget: count(budget) })}`;
    caption.append(label);
  }
  const bar = document.createElement("ol");
  bar.className = "history-bar";
  bar.setAttribute("aria-label", `${t("history_picture")}: ${name}`);
  messages.forEach((message, index) => {
    const [kind, detail] = messageKind(message, markers);
    const block = document.createElement("li");
    block.className = `msg msg-${kind}`;
    block.style.flexGrow = String(Math.max(sizes[index], 1));
    block.style.flexBasis = "0";
    block.title = `${index} · ${t(`kind_${kind}`)}${detail ? ` · ${detail}` : ""} · ≈${t("bytes", { n: sizes[index] })}`;
    block.setAttribute("aria-label", block.title);
    bar.append(block);
  });
  if (total < scale) {
    const rest = document.createElement("li");
    rest.className = "msg msg-free";
    rest.style.flexGrow = String(scale - total);
    rest.style.flexBasis = "0";
    rest.setAttribute("aria-hidden", "true");
    bar.append(rest);
  }
  const track = document.createElement("div");
  track.className = "history-track";
  track.append(bar);
  if (budget) {
    const mark = document.createElement("span");
    mark.className = "budget-mark";
    mark.style.left = `${Math.min(100, (budget / scale) * 100)}%`;
    mark.title = t("budget", { budget });
    mark.setAttribute("aria-hidden", "true");
    track.append(mark);
  }
  // A legend of the kinds this picture uses, in the reader's language.
  const legend = document.createElement("ul");
  legend.className = "history-legend";
  for (const kind of new Set(messages.map((message) => messageKind(message, markers)[0]))) {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = `swatch msg-${kind}`;
    item.append(swatch, t(`kind_${kind}`));
    legend.append(item);
  }
  figure.append(caption, track, legend);
  return figure;
}
