/**
 * Writing a rewrite back into a note section. The request carried the selection's offsets; the response
 * says where the rewritten text sits once written back (its start, and start + its length). The section
 * may have been edited while the rewrite ran, so the original selection is checked first: if the text at
 * those offsets changed, the write-back is refused rather than landing in the wrong place.
 */
export interface RewriteSelection {
  selection_start: number;
  selection_end: number;
  selected_text: string;
}

export interface RewriteResult {
  rewritten_text: string;
  selection_start: number;
  selection_end: number;
}

export type WriteBack = { ok: true; content: string; selectionStart: number; selectionEnd: number } | { ok: false; reason: string };

export function applyRewrite(content: string, sel: RewriteSelection, res: RewriteResult): WriteBack {
  if (content.slice(sel.selection_start, sel.selection_end) !== sel.selected_text) {
    return { ok: false, reason: 'The section changed while the rewrite was prepared. Select the text again and retry.' };
  }
  if (res.selection_start !== sel.selection_start || res.selection_end - res.selection_start !== res.rewritten_text.length) {
    return { ok: false, reason: 'The rewrite came back with offsets that do not match the selection.' };
  }
  const next = content.slice(0, sel.selection_start) + res.rewritten_text + content.slice(sel.selection_end);
  return { ok: true, content: next, selectionStart: res.selection_start, selectionEnd: res.selection_end };
}

/** The request fields for a selection in a section: the text and up to 2000 characters either side. */
export function rewriteRequestFor(content: string, start: number, end: number) {
  return {
    selected_text: content.slice(start, end),
    context_before: content.slice(Math.max(0, start - 2000), start),
    context_after: content.slice(end, end + 2000),
    selection_start: start,
    selection_end: end,
  };
}
