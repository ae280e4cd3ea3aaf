'use client';
import { useState, type RefObject } from 'react';
import { toast } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import type { RewriteResponse } from '@/lib/contracts/rewrite';
import { useRewrite } from '@/lib/hooks/sessions';
import { applyRewrite, rewriteRequestFor } from './apply-rewrite';
import type { Instruction } from './rewrite-instructions';

export type RewritePreview = { req: ReturnType<typeof rewriteRequestFor>; instruction: Instruction; res: RewriteResponse };
type Selection = { start: number; end: number };

/**
 * Rewriting the selection of a section: ask the server, hold the answer as a preview, write it back on
 * accept (refused when the section moved underneath), and keep the texts before each accepted rewrite so
 * they can be undone one by one.
 */
export function useRewriteUndo(opts: {
  sessionId: string;
  loinc: string;
  text: string;
  selection: Selection;
  change: (next: string) => void;
  textarea: RefObject<HTMLTextAreaElement | null>;
  select: (s: Selection) => void;
}) {
  const { sessionId, loinc, text, selection, change, textarea, select } = opts;
  const rewrite = useRewrite();
  const [preview, setPreview] = useState<RewritePreview | null>(null);
  const [undo, setUndo] = useState<string[]>([]);

  async function run(instruction: Instruction) {
    const req = rewriteRequestFor(text, selection.start, selection.end);
    try {
      const res = await rewrite.mutateAsync({ ...req, instruction, ambient_session_id: sessionId, loinc_code: loinc as never });
      setPreview({ req, instruction, res });
    } catch (err) {
      toast.error(`The rewrite failed: ${errorMessage(err)}`);
    }
  }

  function accept() {
    if (!preview) return;
    const r = applyRewrite(text, preview.req, preview.res);
    setPreview(null);
    if (!r.ok) {
      toast.error(r.reason);
      return;
    }
    setUndo((u) => [...u, text]);
    change(r.content);
    requestAnimationFrame(() => {
      const el = textarea.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(r.selectionStart, r.selectionEnd);
      select({ start: r.selectionStart, end: r.selectionEnd });
    });
  }

  function undoLast() {
    const prev = undo[undo.length - 1];
    if (prev === undefined) return;
    setUndo((u) => u.slice(0, -1));
    change(prev);
    toast.info('Rewrite undone.');
  }

  return { run, pending: rewrite.isPending, preview, dismiss: () => setPreview(null), accept, canUndo: undo.length > 0, undoLast };
}
