import { BUILTIN_STYLES, type BuiltinStyleId, type NoteStyleDefinition } from '@/lib/info/note-styles';
import { templateIdOf, type NoteTemplate } from '@/lib/contracts/note-style';

/**
 * The style a reference names: a built-in, or one of the clinician's templates (each section then gathers
 * its own engine section). Null for no reference, or a template the clinician has since deleted, so the
 * note falls back to the requested sections rather than failing.
 */
export function resolveNoteStyle(ref: string | null | undefined, templates: readonly NoteTemplate[] = []): NoteStyleDefinition | null {
  if (!ref) return null;
  if (ref in BUILTIN_STYLES) return BUILTIN_STYLES[ref as BuiltinStyleId];
  const id = templateIdOf(ref);
  const t = id ? templates.find((x) => x.id.toLowerCase() === id) : undefined;
  if (!t) return null;
  return {
    id: ref,
    name: t.name,
    description: `Your template ${t.name}`,
    sections: t.sections.map((s) => ({ loinc: s.loinc, heading: s.heading, format: s.format, ...(s.template_text?.length ? { template_text: s.template_text } : {}) })),
  };
}
