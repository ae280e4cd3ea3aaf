import { LOINC_OFFICIAL_NAMES, loincs, type LoincSectionCode } from '@/lib/info';
import type { PatchContextRequest, SessionMetadataRequest } from '@/lib/contracts/sessions';

/** Headings clinicians write that are not a section's common name. */
const HEADING_SYNONYMS: Record<string, LoincSectionCode> = {
  cc: '10154-3',
  'chief complaints': '10154-3',
  hpi: '10164-2',
  'history of present illness': '10164-2',
  'history of the present illness': '10164-2',
  ros: '10187-3',
  'review of system': '10187-3',
  pe: '29545-1',
  exam: '29545-1',
  'physical examination': '29545-1',
  'physical exam': '29545-1',
  labs: '30954-2',
  'lab results': '30954-2',
  'a p': '51847-2',
  'a and p': '51847-2',
  'assessment plan': '51847-2',
  'assessment and plan': '51847-2',
  plan: '18776-5',
  meds: '10160-0',
  medication: '10160-0',
  'current medications': '10160-0',
  allergy: '48765-2',
  pmh: '11348-0',
  'past history': '11348-0',
  'family hx': '10157-6',
  'social hx': '29762-2',
  vitals: '8716-3',
};

export function normaliseHeading(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const BY_NAME: Map<string, LoincSectionCode> = (() => {
  const m = new Map<string, LoincSectionCode>();
  for (const l of loincs) m.set(normaliseHeading(l.common_name), l.code);
  for (const [code, name] of Object.entries(LOINC_OFFICIAL_NAMES)) {
    const key = normaliseHeading(name);
    if (!m.has(key)) m.set(key, code as LoincSectionCode);
  }
  for (const [k, code] of Object.entries(HEADING_SYNONYMS)) if (!m.has(k)) m.set(k, code);
  return m;
})();

/** The LOINC section a heading names, by common name, official LOINC display or a common abbreviation. */
export function loincForHeading(heading: string | undefined): LoincSectionCode | undefined {
  if (!heading) return undefined;
  const key = normaliseHeading(heading);
  if (!key) return undefined;
  if (/^\d{1,7}-\d$/.test(heading.trim())) return loincs.find((l) => l.code === heading.trim())?.code;
  return BY_NAME.get(key) ?? BY_NAME.get(key.replace(/ section$/, '').replace(/ note$/, ''));
}

/**
 * The deprecated metadata request as a context patch. Note sections become LOINC sections where the
 * title (or else the description) names one; sections that name none cannot be generated and are
 * dropped, and if none remains the default sections apply.
 */
export function metadataToContextPatch(meta: SessionMetadataRequest): PatchContextRequest {
  const patch: PatchContextRequest = {};
  if (meta.patient_dob !== undefined || meta.patient_sex !== undefined) {
    patch.patient = {
      ...(meta.patient_dob !== undefined ? { dob: meta.patient_dob } : {}),
      ...(meta.patient_sex !== undefined ? { sex: meta.patient_sex } : {}),
    };
  }
  if (meta.provider_specialty !== undefined) patch.provider = { specialty: meta.provider_specialty };
  if (meta.note_sections !== undefined) {
    const codes: LoincSectionCode[] = [];
    for (const s of meta.note_sections) {
      const code = loincForHeading(s.title) ?? loincForHeading(s.description);
      if (code && !codes.includes(code)) codes.push(code);
    }
    patch.sections = codes.length > 0 ? codes.map((loinc) => ({ loinc })) : null;
  }
  return patch;
}
