import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  DEFAULT_NOTE_SECTIONS,
  DEFAULT_SPECIALTY,
  DiagnosisCodeType,
  DiagnosisCodeTypeOutput,
  DOSAGE_UNIT_LABELS,
  DosageUnit,
  EncounterRelation,
  EncounterType,
  FieldType,
  FORM_TEMPLATES,
  FormTemplateId,
  FREQUENCY_TYPE_INFO,
  FrequencyType,
  getFormTemplate,
  getInfoRoute,
  INFO,
  INFO_ROUTES,
  LOINC_OFFICIAL_NAMES,
  LoincCode,
  MedicationCodingSystem,
  MedicationOrderStatus,
  MedicationTiming,
  OrderOrigin,
  ORDER_LISTS,
  ProviderRole,
  Specialty,
  VisitType,
} from './index';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
// The importers read CODESETS_DIR; tests fall back to the shared checkout next to the project.
const CODESETS_DIR = process.env.CODESETS_DIR ?? path.join(PROJECT_ROOT, '../shared/data/codesets');
const LOINC_CSV = path.join(CODESETS_DIR, 'loinc_sections.csv');

/** RFC 4180 rows: the CSV's `source` column quotes commas. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
    } else field += ch;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}

function duplicates(values: readonly string[]): string[] {
  return values.filter((v, i) => values.indexOf(v) !== i);
}

const EXPECTED_DEFAULTS = ['10154-3', '10164-2', '10187-3', '29545-1', '30954-2', '51847-2', '10160-0', '48765-2'];

describe('LOINC sections against the official code set', () => {
  const present = existsSync(LOINC_CSV);
  if (!present) {
    it.skip(`skipped: ${LOINC_CSV} not found (set CODESETS_DIR to the code-set directory to run)`, () => {});
    return;
  }

  const [header, ...rows] = parseCsv(readFileSync(LOINC_CSV, 'utf8'));
  const codeCol = header!.indexOf('code');
  const nameCol = header!.indexOf('name');
  const csvNames = new Map<string, Set<string>>();
  for (const row of rows) {
    const code = row[codeCol]!;
    if (!csvNames.has(code)) csvNames.set(code, new Set());
    csvNames.get(code)!.add(row[nameCol]!);
  }

  it('holds every distinct code in the CSV and no other', () => {
    expect(csvNames.size).toBe(68);
    const ours = INFO.loincs.map((l) => l.code);
    expect([...ours].sort()).toEqual([...csvNames.keys()].sort());
  });

  it('official names match the CSV', () => {
    expect(Object.keys(LOINC_OFFICIAL_NAMES).sort()).toEqual([...csvNames.keys()].sort());
    for (const [code, name] of Object.entries(LOINC_OFFICIAL_NAMES)) {
      expect(csvNames.get(code), code).toContain(name);
    }
  });

  it('default sections have the expected C-CDA section meaning', () => {
    const sectionCol = header!.indexOf('ccda_section');
    const sectionOf = new Map(rows.map((r) => [r[codeCol]!, r[sectionCol]!]));
    expect(sectionOf.get('10154-3')).toBe('Chief Complaint Section');
    expect(sectionOf.get('10164-2')).toBe('History of Present Illness Section');
    expect(sectionOf.get('10187-3')).toBe('Review of Systems Section');
    expect(sectionOf.get('29545-1')).toBe('Physical Exam Section');
    expect(sectionOf.get('30954-2')).toBe('Results Section');
    expect(sectionOf.get('51847-2')).toBe('Assessment and Plan Section');
    expect(sectionOf.get('10160-0')).toBe('Medications Section');
    expect(sectionOf.get('48765-2')).toBe('Allergies and Intolerances Section');
  });
});

describe('LOINC list', () => {
  it('has a common name for every code, unique so pickers can tell sections apart', () => {
    for (const l of INFO.loincs) expect(l.common_name.trim(), l.code).not.toBe('');
    expect(duplicates(INFO.loincs.map((l) => l.common_name))).toEqual([]);
  });

  it('has an official name for exactly the listed codes', () => {
    expect(Object.keys(LOINC_OFFICIAL_NAMES).sort()).toEqual(INFO.loincs.map((l) => l.code).sort());
  });

  it('defaults are the expected sections, in order, and all in the list', () => {
    expect([...DEFAULT_NOTE_SECTIONS]).toEqual(EXPECTED_DEFAULTS);
    const codes = new Set(INFO.loincs.map((l) => l.code));
    for (const code of DEFAULT_NOTE_SECTIONS) expect(codes.has(code), code).toBe(true);
    // Pickers show the defaults first.
    expect(INFO.loincs.slice(0, DEFAULT_NOTE_SECTIONS.length).map((l) => l.code)).toEqual(EXPECTED_DEFAULTS);
  });

  it('uses the informal names clinicians use', () => {
    const byCode = Object.fromEntries(INFO.loincs.map((l) => [l.code, l.common_name]));
    expect(byCode).toMatchObject({
      '10154-3': 'Chief complaint',
      '10164-2': 'History of present illness',
      '10187-3': 'Review of systems',
      '29545-1': 'Physical exam',
      '30954-2': 'Results',
      '51847-2': 'Assessment and plan',
      '10160-0': 'Medications',
      '48765-2': 'Allergies',
      '18776-5': 'Plan of care',
      '51848-0': 'Assessment',
      '10157-6': 'Family history',
      '29762-2': 'Social history',
      '11348-0': 'Past medical history',
      '47519-4': 'Procedures',
      '11369-6': 'Immunizations',
      '8716-3': 'Vital signs',
      '11450-4': 'Problem list',
      '42349-1': 'Reason for referral',
    });
  });
});

describe('INFO', () => {
  it('has exactly the spec members', () => {
    expect(Object.keys(INFO).sort()).toEqual(
      [
        'loincs',
        'specialties',
        'encounter_types',
        'visit_types',
        'provider_roles',
        'diagnosis_code_types',
        'medication_coding_systems',
        'medication_dosage_units',
        'medication_frequency_types',
        'medication_timings',
        'medication_order_statuses',
        'order_encounter_relations',
        'order_origins',
        'structured_data_field_types',
      ].sort(),
    );
  });

  it('has no duplicates in any list and no empty list', () => {
    for (const [name, list] of Object.entries(INFO)) {
      const ids = (list as readonly Record<string, string>[]).map((item) => item.code ?? item.code_type!);
      expect(ids.length, name).toBeGreaterThan(0);
      expect(ids.every((id) => typeof id === 'string' && id !== ''), name).toBe(true);
      expect(duplicates(ids), name).toEqual([]);
    }
  });

  it('codes are UPPER_SNAKE_CASE except LOINC codes and the lowercase field types', () => {
    for (const [name, list] of Object.entries(INFO)) {
      if (name === 'loincs') continue;
      const pattern = name === 'structured_data_field_types' ? /^[a-z][a-z0-9_]*$/ : /^[A-Z][A-Z0-9_]*$/;
      for (const item of list as readonly Record<string, string>[]) {
        expect(item.code ?? item.code_type, name).toMatch(pattern);
      }
    }
    for (const l of INFO.loincs) expect(l.code).toMatch(/^\d{1,5}-\d$/);
  });

  it('items have the spec item shapes', () => {
    for (const l of INFO.loincs) expect(Object.keys(l).sort()).toEqual(['code', 'common_name']);
    for (const t of INFO.diagnosis_code_types) expect(Object.keys(t)).toEqual(['code_type']);
    for (const [name, list] of Object.entries(INFO)) {
      if (name === 'loincs' || name === 'diagnosis_code_types') continue;
      for (const item of list as readonly object[]) expect(Object.keys(item), name).toEqual(['code']);
    }
  });

  it('contains the spec examples and the expected sets', () => {
    const codes = (list: readonly { code: string }[]) => list.map((i) => i.code);
    expect(codes(INFO.specialties)).toEqual(
      expect.arrayContaining(['FAMILY_MEDICINE', 'INTERNAL_MEDICINE', 'PEDIATRICS', 'CARDIOLOGY']),
    );
    expect(INFO.specialties.length).toBeGreaterThanOrEqual(50);
    expect(INFO.specialties.length).toBeLessThanOrEqual(80);
    expect(codes(INFO.specialties)).toContain(DEFAULT_SPECIALTY);
    expect(codes(INFO.encounter_types)).toEqual(
      expect.arrayContaining(['AMBULATORY', 'INPATIENT', 'EMERGENCY', 'TELEHEALTH', 'HOME_HEALTH', 'OBSERVATION', 'SKILLED_NURSING']),
    );
    expect(codes(INFO.visit_types)).toEqual(
      expect.arrayContaining([
        'NEW_PATIENT', 'ESTABLISHED_PATIENT', 'WELLNESS', 'ED', 'FOLLOW_UP', 'CONSULT', 'PROCEDURE', 'PRE_OP',
        'POST_OP', 'ADMISSION', 'PROGRESS_NOTE', 'DISCHARGE', 'URGENT_CARE', 'TELEHEALTH',
      ]),
    );
    expect(codes(INFO.provider_roles)).toEqual(
      expect.arrayContaining(['ATTENDING', 'CONSULTING', 'RESIDENT', 'FELLOW', 'NURSE_PRACTITIONER', 'PHYSICIAN_ASSISTANT']),
    );
    expect(INFO.diagnosis_code_types.map((t) => t.code_type)).toEqual(['ICD10', 'IMO', 'HCC']);
    expect(codes(INFO.medication_coding_systems)).toEqual(['RXCUI', 'NDC']);
    expect(codes(INFO.medication_dosage_units)).toEqual(
      expect.arrayContaining([
        'TAB', 'CAP', 'MG', 'MCG', 'G', 'ML', 'L', 'TSP', 'TBSP', 'UNIT', 'IU', 'MEQ', 'PUFF', 'SPRAY', 'DROP',
        'PATCH', 'SUPP', 'APPLICATION', 'VIAL', 'AMPULE', 'INHALATION', 'MG_PER_KG',
      ]),
    );
    expect(codes(INFO.medication_frequency_types)).toEqual(
      expect.arrayContaining([
        'ONE_A_DAY', 'TWO_A_DAY', 'THREE_A_DAY', 'FOUR_A_DAY', 'EVERY_OTHER_DAY', 'EVERY_4_HOURS', 'EVERY_6_HOURS',
        'EVERY_8_HOURS', 'EVERY_12_HOURS', 'AT_BEDTIME', 'ONCE_A_WEEK', 'TWICE_A_WEEK', 'ONCE_A_MONTH', 'AS_NEEDED',
        'ONCE', 'EVERY_MORNING', 'EVERY_EVENING',
      ]),
    );
    expect(codes(INFO.medication_timings)).toEqual(
      expect.arrayContaining([
        'WITH_MEALS', 'BEFORE_MEALS', 'AFTER_MEALS', 'ON_EMPTY_STOMACH', 'AT_BEDTIME', 'IN_THE_MORNING',
        'IN_THE_EVENING', 'WITH_FOOD',
      ]),
    );
    expect(codes(INFO.medication_order_statuses)).toEqual(
      expect.arrayContaining(['ACTIVE', 'DISCONTINUED', 'REFILLED', 'NEW', 'CHANGED', 'ON_HOLD', 'COMPLETED']),
    );
    expect(codes(INFO.order_encounter_relations)).toEqual(['CURRENT_ENCOUNTER', 'PRIOR_ENCOUNTER']);
    expect(codes(INFO.order_origins)).toEqual(['AMBIENT', 'EMR', 'USER']);
    expect(codes(INFO.structured_data_field_types)).toEqual(['text', 'radio', 'multi_select', 'date']);
  });

  it('does not list SNOMED anywhere, nor a vendor-branded origin', () => {
    expect(JSON.stringify(INFO)).not.toMatch(/SNOMED/i);
    expect(JSON.stringify(INFO.order_origins)).not.toMatch(/SUKI/i);
  });

  it('is frozen, so one caller cannot change what the next one is served', () => {
    expect(Object.isFrozen(INFO)).toBe(true);
    expect(Object.isFrozen(INFO.specialties)).toBe(true);
    expect(Object.isFrozen(INFO.loincs[0])).toBe(true);
    expect(() => (INFO.specialties as unknown as unknown[]).push({ code: 'X' })).toThrow(TypeError);
    expect(Object.isFrozen(FORM_TEMPLATES[0]!.fields[0])).toBe(true);
  });
});

describe('frequency and dosage labels', () => {
  it('cover exactly the listed codes', () => {
    expect(Object.keys(FREQUENCY_TYPE_INFO).sort()).toEqual(INFO.medication_frequency_types.map((f) => f.code).sort());
    expect(Object.keys(DOSAGE_UNIT_LABELS).sort()).toEqual(INFO.medication_dosage_units.map((u) => u.code).sort());
    for (const label of Object.values(DOSAGE_UNIT_LABELS)) expect(label).not.toBe('');
    expect(duplicates(Object.values(FREQUENCY_TYPE_INFO).map((f) => f.label))).toEqual([]);
  });

  it('doses per day are right where they are defined', () => {
    expect(FREQUENCY_TYPE_INFO.ONE_A_DAY.dosesPerDay).toBe(1);
    expect(FREQUENCY_TYPE_INFO.TWO_A_DAY.dosesPerDay).toBe(2);
    expect(FREQUENCY_TYPE_INFO.FOUR_A_DAY.dosesPerDay).toBe(4);
    expect(FREQUENCY_TYPE_INFO.EVERY_4_HOURS.dosesPerDay).toBe(6);
    expect(FREQUENCY_TYPE_INFO.EVERY_8_HOURS.dosesPerDay).toBe(3);
    expect(FREQUENCY_TYPE_INFO.EVERY_OTHER_DAY.dosesPerDay).toBe(0.5);
    expect(FREQUENCY_TYPE_INFO.ONCE_A_WEEK.dosesPerDay! * 7).toBeCloseTo(1);
    expect(FREQUENCY_TYPE_INFO.AS_NEEDED.dosesPerDay).toBeNull();
    expect(FREQUENCY_TYPE_INFO.ONCE_A_MONTH.dosesPerDay).toBeNull();
    for (const f of Object.values(FREQUENCY_TYPE_INFO)) {
      if (f.dosesPerDay !== null) expect(f.dosesPerDay).toBeGreaterThan(0);
    }
  });

  it('hour-interval codes agree with their doses per day', () => {
    for (const [code, f] of Object.entries(FREQUENCY_TYPE_INFO)) {
      const m = /^EVERY_(\d+)_HOURS$/.exec(code);
      if (m) expect(f.dosesPerDay, code).toBeCloseTo(24 / Number(m[1]));
    }
  });
});

describe('validation enums', () => {
  const cases: Array<[string, { safeParse(v: unknown): { success: boolean } }, string[], unknown[]]> = [
    ['LoincCode', LoincCode, ['10154-3', '51847-2', '8716-3'], ['10154', '99999-9', 'Chief complaint', 10154]],
    ['Specialty', Specialty, ['FAMILY_MEDICINE', 'CARDIOLOGY'], ['family_medicine', 'ASTROLOGY', '']],
    ['EncounterType', EncounterType, ['AMBULATORY', 'INPATIENT', 'EMERGENCY'], ['OUTPATIENT_CLINIC', 'ambulatory']],
    ['VisitType', VisitType, ['NEW_PATIENT', 'ED', 'WELLNESS'], ['NEW', null, undefined]],
    ['ProviderRole', ProviderRole, ['ATTENDING', 'CONSULTING'], ['BOSS', 'attending']],
    ['DiagnosisCodeType', DiagnosisCodeType, ['ICD10', 'IMO'], ['SNOMED', 'HCC', 'ICD9', 'icd10']],
    ['DiagnosisCodeTypeOutput', DiagnosisCodeTypeOutput, ['ICD10', 'IMO', 'HCC'], ['SNOMED']],
    ['MedicationCodingSystem', MedicationCodingSystem, ['RXCUI', 'NDC'], ['RXNORM', 'SNOMED']],
    ['DosageUnit', DosageUnit, ['TAB', 'TBSP', 'MG_PER_KG'], ['TABLET', 'tab', 'mg']],
    ['FrequencyType', FrequencyType, ['ONE_A_DAY', 'TWO_A_DAY', 'AS_NEEDED'], ['BID', 'DAILY']],
    ['MedicationTiming', MedicationTiming, ['WITH_MEALS', 'AT_BEDTIME'], ['WITH_MEAL', 'HS']],
    ['MedicationOrderStatus', MedicationOrderStatus, ['ACTIVE', 'DISCONTINUED'], ['STOPPED', 'active']],
    ['EncounterRelation', EncounterRelation, ['CURRENT_ENCOUNTER', 'PRIOR_ENCOUNTER'], ['NEXT_ENCOUNTER']],
    ['OrderOrigin', OrderOrigin, ['AMBIENT', 'EMR', 'USER'], ['SUKI_AMBIENT', 'emr']],
    ['FieldType', FieldType, ['text', 'radio', 'multi_select', 'date'], ['TEXT', 'checkbox', 'number']],
    ['FormTemplateId', FormTemplateId, ['phq-9', 'tobacco-use'], ['phq-10', '']],
  ];

  for (const [name, schema, accepted, rejected] of cases) {
    it(`${name} accepts listed values and rejects others`, () => {
      for (const v of accepted) expect(schema.safeParse(v).success, `${name} ${String(v)}`).toBe(true);
      for (const v of rejected) expect(schema.safeParse(v).success, `${name} ${String(v)}`).toBe(false);
    });
  }

  it('accepts every listed code', () => {
    for (const l of INFO.loincs) expect(LoincCode.safeParse(l.code).success).toBe(true);
    for (const s of INFO.specialties) expect(Specialty.safeParse(s.code).success).toBe(true);
    for (const u of INFO.medication_dosage_units) expect(DosageUnit.safeParse(u.code).success).toBe(true);
  });

  it('rejects with a short message pointing at the info route', () => {
    const result = LoincCode.safeParse('00000-0');
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toContain('/api/v1/info/loincs');
    expect(result.error!.issues[0]!.message.length).toBeLessThan(120);
  });

  it('infers literal unions, not string', () => {
    expectTypeOf<Specialty>().toExtend<string>();
    expectTypeOf<'FAMILY_MEDICINE'>().toExtend<Specialty>();
    expectTypeOf<string>().not.toExtend<Specialty>();
    expectTypeOf<DiagnosisCodeType>().toEqualTypeOf<'ICD10' | 'IMO'>();
  });
});

describe('INFO_ROUTES', () => {
  const EXPECTED_PATHS = [
    'loincs',
    'specialties',
    'encounter-types',
    'visit-types',
    'provider-roles',
    'diagnosis-code-types',
    'orders',
    'orders/medication-timings',
    'orders/medication-dosage-units',
    'orders/medication-frequency-types',
    'orders/medication-statuses',
    'orders/coding-systems',
    'orders/encounter-relations',
    'orders/origins',
    'structured-data-field-types',
    'form-templates',
  ];

  it('has one entry per route, no duplicates', () => {
    expect(INFO_ROUTES.map((r) => r.path)).toEqual(EXPECTED_PATHS);
  });

  it('single-list routes answer {<key>: list} with the same list INFO serves', () => {
    for (const route of INFO_ROUTES) {
      if (route.path === 'orders') continue;
      expect(Object.keys(route.body), route.path).toEqual([route.key]);
      const list = (route.body as Record<string, unknown>)[route.key];
      expect(Array.isArray(list), route.path).toBe(true);
      if (route.key in INFO) expect(list).toBe(INFO[route.key as keyof typeof INFO]);
    }
  });

  it('answers the spec shapes for timings, orders and form templates', () => {
    expect(getInfoRoute('orders/medication-timings')!.body).toEqual({ timings: INFO.medication_timings });
    expect(getInfoRoute('orders/medication-statuses')!.body).toEqual({
      medication_order_statuses: INFO.medication_order_statuses,
    });
    expect(getInfoRoute('form-templates')!.body).toEqual({ form_templates: FORM_TEMPLATES });
    const orders = getInfoRoute('orders')!;
    expect(orders.body).toBe(ORDER_LISTS);
    expect(Object.keys(orders.body).sort()).toEqual(
      [
        'medication_coding_systems',
        'medication_dosage_units',
        'medication_frequency_types',
        'medication_timings',
        'medication_order_statuses',
        'order_encounter_relations',
        'order_origins',
      ].sort(),
    );
  });

  it('every INFO member is served by some route', () => {
    const served = new Set(INFO_ROUTES.flatMap((r) => Object.values(r.body)));
    for (const [name, list] of Object.entries(INFO)) expect(served.has(list), name).toBe(true);
  });

  it('getInfoRoute tolerates slashes and catch-all segments, and misses unknown paths', () => {
    expect(getInfoRoute('/orders/origins/')!.key).toBe('order_origins');
    expect(getInfoRoute(['orders', 'coding-systems'])!.key).toBe('medication_coding_systems');
    expect(getInfoRoute('orders/unknown')).toBeUndefined();
    expect(getInfoRoute('')).toBeUndefined();
  });
});

describe('form templates', () => {
  const fieldTypes = new Set<string>(INFO.structured_data_field_types.map((t) => t.code));
  const loincCodes = new Set<string>(INFO.loincs.map((l) => l.code));

  it('has unique template ids and the expected screens', () => {
    const ids = FORM_TEMPLATES.map((t) => t.template_id);
    expect(duplicates(ids)).toEqual([]);
    expect(ids).toEqual(
      expect.arrayContaining(['phq-2', 'phq-9', 'steadi-fall-risk', 'tobacco-use', 'ros-14-system', 'pain-assessment']),
    );
    expect(getFormTemplate('phq-9')!.name).toMatch(/PHQ-9/);
    expect(getFormTemplate('nope')).toBeUndefined();
  });

  it('every field type is in structured_data_field_types; options exactly on choice fields', () => {
    for (const t of FORM_TEMPLATES) {
      expect(loincCodes.has(t.loinc), `${t.template_id} loinc`).toBe(true);
      expect(t.fields.length).toBeGreaterThan(0);
      expect(duplicates(t.fields.map((f) => f.id)), t.template_id).toEqual([]);
      for (const f of t.fields) {
        const where = `${t.template_id}.${f.id}`;
        expect(fieldTypes.has(f.type), where).toBe(true);
        expect(f.id, where).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(f.label.trim(), where).not.toBe('');
        const options = 'options' in f ? f.options : undefined;
        if (f.type === 'radio' || f.type === 'multi_select') {
          expect(options && options.length >= 2, where).toBe(true);
          expect(duplicates(options ?? []), where).toEqual([]);
        } else {
          expect(options, where).toBeUndefined();
        }
      }
    }
  });

  it('PHQ-9 keeps the instrument: nine items on the four-point scale, PHQ-2 its first two', () => {
    const items = (id: string) => getFormTemplate(id)!.fields.filter((f) => f.type === 'radio' && f.options?.length === 4);
    const phq9 = items('phq-9').filter((f) => f.options![0] === 'Not at all');
    expect(phq9).toHaveLength(9);
    expect(phq9.map((f) => f.options)).toEqual(
      Array(9).fill(['Not at all', 'Several days', 'More than half the days', 'Nearly every day']),
    );
    expect(items('phq-2')).toEqual(phq9.slice(0, 2));
  });

  it('covers every field type across the templates', () => {
    const used = new Set(FORM_TEMPLATES.flatMap((t) => t.fields.map((f) => f.type)));
    expect([...used].sort()).toEqual([...fieldTypes].sort());
  });
});
