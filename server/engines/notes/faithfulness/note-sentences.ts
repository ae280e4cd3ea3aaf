import { splitSentences } from '../embedded/text';
import type { NoteInput } from './types';

/** `marked`: the engine's own template flag, when the note carries such flags (false: written from the visit). */
export interface NoteSentence { section: string; loinc?: string; text: string; claimed: string[]; marked?: boolean }

const BULLET = /^\s*(?:[•*-]\s+)/;
const NUMBERED = /^\s*(\d+)\.\s+(.+)$/;

function split(content: string, section: string, loinc?: string): NoteSentence[] {
  return content
    .split('\n')
    .map((l) => l.replace(BULLET, '').trim())
    .filter(Boolean)
    .flatMap((l) => {
      const numbered = NUMBERED.exec(l);
      return numbered ? [numbered[2]] : splitSentences(l);
    })
    .map((text) => ({ section, ...(loinc ? { loinc } : {}), text, claimed: [] }));
}

/**
 * The sentences of a note, each with its section and the transcript entries the engine cited for it. The
 * engine's own sentence list is used when it gives one; problem headings ("1. Hypertension.") are in the
 * content only, so they are added from it. Plain text is split by line and sentence; an upper-case line is
 * a section heading.
 */
export function noteSentences(note: NoteInput): NoteSentence[] {
  if (typeof note === 'string') {
    let section = '';
    const out: NoteSentence[] = [];
    for (const line of note.split('\n')) {
      const l = line.trim();
      if (!l) continue;
      if (/^[A-Z][A-Z &/,-]{2,}:?$/.test(l)) { section = l.replace(/:$/, ''); continue; }
      out.push(...split(l, section));
    }
    return out;
  }
  // A note whose engine flags its template sentences (issue 27) is read by those flags.
  const marks = note.summary.some((s) => s.sentences?.some((x) => x.template));
  return note.summary.flatMap((s) => {
    if (!s.sentences) return split(s.content, s.title, s.loinc_code);
    const headings = s.content.split('\n').map((l) => NUMBERED.exec(l.trim())?.[2]).filter((h): h is string => !!h);
    return [
      ...headings.map((text) => ({ section: s.title, loinc: s.loinc_code, text, claimed: [] })),
      ...s.sentences.filter((x) => x.text.trim()).map((x) => ({ section: s.title, loinc: s.loinc_code, text: x.text, claimed: x.source_transcripts, ...(marks ? { marked: !!x.template } : {}) })),
    ];
  });
}
