import { describe, expect, it } from 'vitest';
import { applyRewrite, rewriteRequestFor } from './apply-rewrite';

const note = 'Patient reports chest pain for two days. Denies shortness of breath. Takes lisinopril daily.';

describe('applyRewrite', () => {
  it('replaces exactly the selection and reports where the new text sits', () => {
    const start = note.indexOf('Denies');
    const end = note.indexOf('Takes') - 1;
    const req = rewriteRequestFor(note, start, end);
    expect(req.selected_text).toBe('Denies shortness of breath.');
    expect(req.context_before).toBe(note.slice(0, start));
    expect(req.context_after).toBe(note.slice(end));
    const rewritten = 'No trouble breathing.';
    const r = applyRewrite(note, req, { rewritten_text: rewritten, selection_start: start, selection_end: start + rewritten.length });
    expect(r).toEqual({
      ok: true,
      content: 'Patient reports chest pain for two days. No trouble breathing. Takes lisinopril daily.',
      selectionStart: start,
      selectionEnd: start + rewritten.length,
    });
    if (r.ok) expect(r.content.slice(r.selectionStart, r.selectionEnd)).toBe(rewritten);
  });

  it('works at the very start and end of a section', () => {
    const first = rewriteRequestFor(note, 0, 7);
    const a = applyRewrite(note, first, { rewritten_text: 'The patient', selection_start: 0, selection_end: 11 });
    expect(a.ok && a.content.startsWith('The patient reports')).toBe(true);
    const last = rewriteRequestFor(note, note.length - 6, note.length);
    const b = applyRewrite(note, last, { rewritten_text: 'every day.', selection_start: note.length - 6, selection_end: note.length + 4 });
    expect(b.ok && b.content.endsWith('lisinopril every day.')).toBe(true);
  });

  it('refuses when the section changed under the selection', () => {
    const req = rewriteRequestFor(note, 0, 7);
    const edited = 'The ' + note;
    const r = applyRewrite(edited, req, { rewritten_text: 'Pt', selection_start: 0, selection_end: 2 });
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(/changed/);
  });

  it('refuses offsets that do not describe the rewritten text', () => {
    const req = rewriteRequestFor(note, 0, 7);
    expect(applyRewrite(note, req, { rewritten_text: 'Pt', selection_start: 0, selection_end: 7 }).ok).toBe(false);
    expect(applyRewrite(note, req, { rewritten_text: 'Pt', selection_start: 3, selection_end: 5 }).ok).toBe(false);
  });
});
