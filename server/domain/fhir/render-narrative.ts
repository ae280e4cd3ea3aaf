import { escapeHtml } from '@medplum/core';
import type { Narrative } from '@medplum/fhirtypes';

/**
 * Plain note text as FHIR narrative: XHTML-escaped, one paragraph per line so the layout a clinician
 * wrote (items, blank-line breaks) survives. Empty text is an `empty` narrative, which FHIR allows.
 */
export function renderNarrative(text: string, emptyText = 'No content was recorded.'): Narrative {
  const lines = text
    // Characters XML 1.0 cannot carry at all, escaped or not.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length === 0) return { status: 'empty', div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapeHtml(emptyText)}</p></div>` };
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</div>` };
}
