import type { NoteStyleDefinition } from '@/lib/info/note-styles';
import type { NoteRequest, NoteSectionRequest } from '../../engines/notes/types';

/**
 * The engine request a style needs: every engine section its sections gather, in the style's order (pre-charted
 * content the visit's context gave for a section is kept), with bullets or prose where the style says.
 */
export function styleNoteRequest(request: NoteRequest, style: NoteStyleDefinition): NoteRequest {
  const given = new Map(request.sections.map((s) => [s.loinc, s]));
  const sections: NoteSectionRequest[] = [];
  const sectionFormat = { ...request.preferences.sectionFormat };
  for (const s of style.sections) {
    for (const part of s.parts ?? [s.loinc]) {
      if (sections.some((x) => x.loinc === part)) continue;
      sections.push(given.get(part) ?? { loinc: part });
      if (s.format) sectionFormat[part] = s.format;
    }
  }
  return { ...request, sections, preferences: { ...request.preferences, sectionFormat } };
}
