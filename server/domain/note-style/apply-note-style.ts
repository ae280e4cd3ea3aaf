import { loincs } from '@/lib/info';
import type { NoteStyleDefinition } from '@/lib/info/note-styles';
import type { LeftOutItem, NoteResult, NoteSection } from '../../engines/notes/types';

type Sentence = NonNullable<NoteSection['sentences']>[number];

const PART_LABEL = new Map<string, string>(loincs.map((l) => [l.code, l.common_name]));
/** Where the pre-visit note goes: the section that holds the history, else the first. */
const HISTORY_PARTS = ['10164-2', '61150-9', '10154-3'];

export const PREVISIT_PREFIX = 'Pre-visit note: ';

/**
 * Writes the engine's note in a style (issue 31): the style's sections in its order under its headings,
 * each gathering the sentences of its engine sections with their evidence unchanged. The style's fixed
 * wording and the clinician's pre-visit note lead their section as sentences marked `template`, with no
 * transcript entry behind them, so the note never presents them as said in the visit. What the engine
 * left out is filed under the section that now holds its engine section.
 */
export function applyNoteStyle(note: NoteResult, style: NoteStyleDefinition, previsitNote?: string | null): NoteResult {
  const bySection = new Map(note.summary.map((s) => [s.loinc_code, s]));
  const home = new Map<string, string>();
  const previsitAt =
    style.sections.find((s) => (s.parts ?? [s.loinc]).some((p) => HISTORY_PARTS.includes(p)))?.loinc ?? style.sections[0]?.loinc;
  const summary: NoteSection[] = style.sections.map((s) => {
    const parts = s.parts ?? [s.loinc];
    const bullet = s.format === 'BULLETED' ? '• ' : '';
    const fixed: Sentence[] = (s.template_text ?? []).map((text) => ({ text, source_transcripts: [], template: true }));
    if (previsitNote?.trim() && s.loinc === previsitAt) fixed.push({ text: `${PREVISIT_PREFIX}${previsitNote.trim()}`, source_transcripts: [], template: true });
    const blocks: string[] = fixed.length ? [fixed.map((f) => `${bullet}${f.text}`).join('\n')] : [];
    const sentences: Sentence[] = [...fixed];
    const sources = new Set<string>();
    const filled = parts.map((p) => bySection.get(p)).filter((x): x is NoteSection => !!x && !!x.content.trim());
    for (const p of parts) home.set(p, s.loinc);
    for (const part of filled) {
      // A gathered section other than the style section's own is labelled, as a scribe would ("Review of systems:").
      const label = filled.length > 1 && part.loinc_code !== s.loinc ? PART_LABEL.get(part.loinc_code) : undefined;
      const content = part.content.trim();
      blocks.push(label ? (content.includes('\n') ? `${label}:\n${content}` : `${label}: ${content}`) : content);
      sentences.push(...(part.sentences ?? [{ text: content, source_transcripts: part.source_transcripts }]));
      for (const id of part.source_transcripts) sources.add(id);
    }
    return { title: s.heading, content: blocks.join('\n\n'), loinc_code: s.loinc, source_transcripts: [...sources], sentences };
  });
  const leftOut: LeftOutItem[] | undefined = note.left_out?.map((l) => (l.loinc_code && home.has(l.loinc_code) ? { ...l, loinc_code: home.get(l.loinc_code) } : l));
  const structured = note.structured_data;
  const kept = new Set(summary.map((s) => s.loinc_code));
  return {
    ...note,
    summary,
    structured_data: {
      ...structured,
      section_structured_values: structured.section_structured_values.map((v) => (kept.has(v.loinc) ? v : { ...v, loinc: home.get(v.loinc) ?? v.loinc })),
    },
    ...(leftOut ? { left_out: leftOut } : {}),
  };
}
