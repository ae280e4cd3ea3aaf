import type { NoteSection } from '../types';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The section with one sentence replaced (a trimmed sentence) or taken out (no replacement), in its content
 * and in its sentence list; a bullet or line left empty goes too.
 */
export function editSection(section: NoteSection, text: string, replacement?: string): NoteSection {
  const sentences = section.sentences
    ?.map((s) => (s.text === text ? (replacement ? { ...s, text: replacement } : undefined) : s))
    .filter((s): s is NonNullable<typeof s> => !!s);
  const content = section.content
    .replace(new RegExp(escape(text)), replacement ?? '')
    .split('\n')
    .map((l) => l.replace(/[ \t]{2,}/g, ' ').trimEnd())
    .filter((l) => !/^\s*(?:[-•*]|\d+\.)?\s*$/.test(l))
    .join('\n')
    .trim();
  return { ...section, content, ...(sentences ? { sentences } : {}) };
}
