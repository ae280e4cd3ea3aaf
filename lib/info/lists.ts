/**
 * Reference-information value sets served by GET /api/v1/info and used to validate session context.
 *
 * Shared by the server and the browser (pickers), so this file holds plain data only: no secrets,
 * no database, no node-only imports. Codes are public identifiers that partners persist; never rename
 * or remove one, only add.
 */
import { deepFreeze as frozen } from './freeze';

function codesOf<T extends { readonly code: string }>(list: readonly T[]): readonly T['code'][] {
  return list.map((item) => item.code);
}

// ---------------------------------------------------------------------------------------------
// Note sections (LOINC)
// ---------------------------------------------------------------------------------------------

/**
 * Every LOINC document-section code of C-CDA 5.0 section templates plus the FHIR R5 `doc-section-codes`
 * extras (see shared/data/codesets/loinc_sections.csv). `common_name` is what clinicians call the
 * section; the official LOINC display is in LOINC_OFFICIAL_NAMES because it often reads nothing like
 * the section heading (51847-2 is "Evaluation + Plan note").
 *
 * Pickers render in list order, so the default note sections come first, then the sections an
 * ambulatory note commonly adds, then inpatient/discharge sections, then procedure/operative ones.
 */
export const loincs = frozen([
  // Default note, in default order.
  { code: '10154-3', common_name: 'Chief complaint' },
  { code: '10164-2', common_name: 'History of present illness' },
  { code: '10187-3', common_name: 'Review of systems' },
  { code: '29545-1', common_name: 'Physical exam' },
  { code: '30954-2', common_name: 'Results' },
  { code: '51847-2', common_name: 'Assessment and plan' },
  { code: '10160-0', common_name: 'Medications' },
  { code: '48765-2', common_name: 'Allergies' },
  // Common ambulatory sections.
  { code: '51848-0', common_name: 'Assessment' },
  { code: '18776-5', common_name: 'Plan of care' },
  { code: '29299-5', common_name: 'Reason for visit' },
  { code: '46239-0', common_name: 'Chief complaint and reason for visit' },
  { code: '42349-1', common_name: 'Reason for referral' },
  { code: '61150-9', common_name: 'Subjective' },
  { code: '61149-1', common_name: 'Objective' },
  { code: '8716-3', common_name: 'Vital signs' },
  { code: '11348-0', common_name: 'Past medical history' },
  { code: '11329-0', common_name: 'General medical history' },
  { code: '47519-4', common_name: 'Procedures' },
  { code: '10157-6', common_name: 'Family history' },
  { code: '29762-2', common_name: 'Social history' },
  { code: '11369-6', common_name: 'Immunizations' },
  { code: '11450-4', common_name: 'Problem list' },
  { code: '57852-6', common_name: 'Problem list narrative' },
  { code: '10162-6', common_name: 'Pregnancy history' },
  { code: '10190-7', common_name: 'Mental status' },
  { code: '47420-5', common_name: 'Functional status' },
  { code: '10210-3', common_name: 'General status' },
  { code: '61144-2', common_name: 'Nutrition' },
  { code: '46264-8', common_name: 'Medical equipment' },
  { code: '29549-3', common_name: 'Medications administered' },
  { code: '75310-3', common_name: 'Health concerns' },
  { code: '61146-7', common_name: 'Goals' },
  { code: '62387-6', common_name: 'Interventions' },
  { code: '11383-7', common_name: 'Outcomes' },
  { code: '69730-0', common_name: 'Instructions' },
  { code: '42348-3', common_name: 'Advance directives' },
  { code: '85847-2', common_name: 'Care team' },
  { code: '46240-8', common_name: 'Encounters' },
  { code: '48768-6', common_name: 'Payers' },
  // Inpatient, consultation and discharge.
  { code: '46241-6', common_name: 'Admission diagnosis' },
  { code: '42346-7', common_name: 'Admission medications' },
  { code: '8648-8', common_name: 'Hospital course' },
  { code: '18841-7', common_name: 'Hospital consultations' },
  { code: '11535-2', common_name: 'Discharge diagnosis' },
  { code: '10183-2', common_name: 'Discharge medications' },
  { code: '10184-0', common_name: 'Discharge physical exam' },
  { code: '11493-4', common_name: 'Discharge studies summary' },
  { code: '8653-8', common_name: 'Discharge instructions' },
  { code: '42344-2', common_name: 'Discharge diet' },
  // Procedure and operative notes.
  { code: '29554-3', common_name: 'Procedure description' },
  { code: '59768-2', common_name: 'Procedure indications' },
  { code: '59772-4', common_name: 'Planned procedure' },
  { code: '10219-4', common_name: 'Preoperative diagnosis' },
  { code: '10218-6', common_name: 'Postoperative diagnosis' },
  { code: '59769-0', common_name: 'Postprocedure diagnosis' },
  { code: '59774-0', common_name: 'Anesthesia' },
  { code: '10223-6', common_name: 'Surgical procedure' },
  { code: '59776-5', common_name: 'Procedure findings' },
  { code: '59770-8', common_name: 'Estimated blood loss' },
  { code: '10216-0', common_name: 'Operative fluids' },
  { code: '59773-2', common_name: 'Specimens taken' },
  { code: '59771-6', common_name: 'Procedure implants' },
  { code: '55122-6', common_name: 'Surgical implants' },
  { code: '11537-8', common_name: 'Surgical drains' },
  { code: '55109-3', common_name: 'Complications' },
  { code: '10222-8', common_name: 'Surgical complications' },
  { code: '59775-7', common_name: 'Procedure disposition' },
] as const);

export type LoincSectionCode = (typeof loincs)[number]['code'];
export const LOINC_CODES = frozen(codesOf(loincs));

/**
 * Official LOINC display per code, as C-CDA fixes it for the section template. 8648-8 appears twice in
 * C-CDA with different capitalisation; the LOINC/FHIR spelling is the one kept.
 */
export const LOINC_OFFICIAL_NAMES: Readonly<Record<LoincSectionCode, string>> = frozen({
  '8648-8': 'Hospital course Narrative',
  '8653-8': 'Hospital Discharge instructions',
  '8716-3': 'Vital signs',
  '10154-3': 'Chief complaint Narrative - Reported',
  '10157-6': 'History of family member diseases Narrative',
  '10160-0': 'History of Medication use Narrative',
  '10162-6': 'History of pregnancies Narrative',
  '10164-2': 'History of Present illness Narrative',
  '10183-2': 'Hospital discharge medications Narrative',
  '10184-0': 'Hospital discharge physical findings Narrative',
  '10187-3': 'Review of systems Narrative - Reported',
  '10190-7': 'Mental status Narrative',
  '10210-3': 'Physical findings of General status Narrative',
  '10216-0': 'Surgical operation note fluids Narrative',
  '10218-6': 'Surgical operation note postoperative diagnosis Narrative',
  '10219-4': 'Surgical operation note preoperative diagnosis Narrative',
  '10222-8': 'Surgical operation note surgical complications [Interpretation] Narrative',
  '10223-6': 'Surgical operation note surgical procedure Narrative',
  '11329-0': 'Medical (General) History',
  '11348-0': 'History of Past illness Narrative',
  '11369-6': 'History of Immunization Narrative',
  '11383-7': 'Patient problem outcome Narrative',
  '11450-4': 'Problem list - Reported',
  '11493-4': 'Hospital discharge studies summary Narrative',
  '11535-2': 'Hospital discharge Dx Narrative',
  '11537-8': 'Surgical drains Narrative',
  '18776-5': 'Plan of care note',
  '18841-7': 'Hospital consultations Document',
  '29299-5': 'Reason for visit Narrative',
  '29545-1': 'Physical findings Narrative',
  '29549-3': 'Medication administered Narrative',
  '29554-3': 'Procedure Narrative',
  '29762-2': 'Social history Narrative',
  '30954-2': 'Relevant diagnostic tests/laboratory data Narrative',
  '42344-2': 'Discharge diet (narrative)',
  '42346-7': 'Medications on admission (narrative)',
  '42348-3': 'Advance directives',
  '42349-1': 'Reason for referral (narrative)',
  '46239-0': 'Chief complaint+Reason for visit Narrative',
  '46240-8': 'History of Hospitalizations+Outpatient visits Narrative',
  '46241-6': 'Hospital admission diagnosis Narrative - Reported',
  '46264-8': 'History of medical device use',
  '47420-5': 'Functional status assessment note',
  '47519-4': 'History of Procedures Document',
  '48765-2': 'Allergies and adverse reactions Document',
  '48768-6': 'Payment sources Document',
  '51847-2': 'Evaluation + Plan note',
  '51848-0': 'Evaluation note',
  '55109-3': 'Complications Document',
  '55122-6': 'Surgical operation note implants Narrative',
  '57852-6': 'Problem list Narrative - Reported',
  '59768-2': 'Procedure indications [Interpretation] Narrative',
  '59769-0': 'Postprocedure diagnosis Narrative',
  '59770-8': 'Procedure estimated blood loss Narrative',
  '59771-6': 'Procedure implants Narrative',
  '59772-4': 'Planned procedure Narrative',
  '59773-2': 'Procedure specimens taken Narrative',
  '59774-0': 'Procedure anesthesia Narrative',
  '59775-7': 'Procedure disposition Narrative',
  '59776-5': 'Procedure findings Narrative',
  '61144-2': 'Diet and nutrition Narrative',
  '61146-7': 'Goals Narrative',
  '61149-1': 'Objective Narrative',
  '61150-9': 'Subjective Narrative',
  '62387-6': 'Interventions Narrative',
  '69730-0': 'Instructions',
  '75310-3': 'Health concerns Document',
  '85847-2': 'Patient Care team information',
});

/** Sections generated when a session's context names none. */
export const DEFAULT_NOTE_SECTIONS = frozen([
  '10154-3', // chief complaint
  '10164-2', // history of present illness
  '10187-3', // review of systems
  '29545-1', // physical exam
  '30954-2', // results
  '51847-2', // assessment and plan
  '10160-0', // medications
  '48765-2', // allergies
] as const satisfies readonly LoincSectionCode[]);

// ---------------------------------------------------------------------------------------------
// Provider and visit
// ---------------------------------------------------------------------------------------------

/** ABMS member-board specialties and the subspecialties that write their own note styles. */
export const specialties = frozen([
  { code: 'FAMILY_MEDICINE' },
  { code: 'INTERNAL_MEDICINE' },
  { code: 'PEDIATRICS' },
  { code: 'GENERAL_PRACTICE' },
  { code: 'ADDICTION_MEDICINE' },
  { code: 'ADOLESCENT_MEDICINE' },
  { code: 'ALLERGY_AND_IMMUNOLOGY' },
  { code: 'ANESTHESIOLOGY' },
  { code: 'CARDIOLOGY' },
  { code: 'ADVANCED_HEART_FAILURE_AND_TRANSPLANT_CARDIOLOGY' },
  { code: 'CLINICAL_CARDIAC_ELECTROPHYSIOLOGY' },
  { code: 'INTERVENTIONAL_CARDIOLOGY' },
  { code: 'CARDIOTHORACIC_SURGERY' },
  { code: 'COLON_AND_RECTAL_SURGERY' },
  { code: 'CRITICAL_CARE_MEDICINE' },
  { code: 'DERMATOLOGY' },
  { code: 'EMERGENCY_MEDICINE' },
  { code: 'ENDOCRINOLOGY' },
  { code: 'GASTROENTEROLOGY' },
  { code: 'HEPATOLOGY' },
  { code: 'GENERAL_SURGERY' },
  { code: 'GERIATRIC_MEDICINE' },
  { code: 'HEMATOLOGY' },
  { code: 'HEMATOLOGY_ONCOLOGY' },
  { code: 'MEDICAL_ONCOLOGY' },
  { code: 'HOSPICE_AND_PALLIATIVE_MEDICINE' },
  { code: 'HOSPITAL_MEDICINE' },
  { code: 'INFECTIOUS_DISEASE' },
  { code: 'MEDICAL_GENETICS' },
  { code: 'NEPHROLOGY' },
  { code: 'NEUROLOGY' },
  { code: 'NEUROSURGERY' },
  { code: 'NUCLEAR_MEDICINE' },
  { code: 'OBSTETRICS_AND_GYNECOLOGY' },
  { code: 'MATERNAL_FETAL_MEDICINE' },
  { code: 'GYNECOLOGIC_ONCOLOGY' },
  { code: 'REPRODUCTIVE_ENDOCRINOLOGY_AND_INFERTILITY' },
  { code: 'UROGYNECOLOGY' },
  { code: 'OCCUPATIONAL_MEDICINE' },
  { code: 'OPHTHALMOLOGY' },
  { code: 'ORTHOPEDIC_SURGERY' },
  { code: 'HAND_SURGERY' },
  { code: 'OTOLARYNGOLOGY' },
  { code: 'PAIN_MEDICINE' },
  { code: 'PATHOLOGY' },
  { code: 'PEDIATRIC_CARDIOLOGY' },
  { code: 'PEDIATRIC_EMERGENCY_MEDICINE' },
  { code: 'PEDIATRIC_ENDOCRINOLOGY' },
  { code: 'PEDIATRIC_GASTROENTEROLOGY' },
  { code: 'PEDIATRIC_HEMATOLOGY_ONCOLOGY' },
  { code: 'PEDIATRIC_NEUROLOGY' },
  { code: 'PEDIATRIC_SURGERY' },
  { code: 'NEONATOLOGY' },
  { code: 'DEVELOPMENTAL_BEHAVIORAL_PEDIATRICS' },
  { code: 'PHYSICAL_MEDICINE_AND_REHABILITATION' },
  { code: 'PLASTIC_SURGERY' },
  { code: 'PODIATRY' },
  { code: 'PREVENTIVE_MEDICINE' },
  { code: 'PSYCHIATRY' },
  { code: 'CHILD_AND_ADOLESCENT_PSYCHIATRY' },
  { code: 'GERIATRIC_PSYCHIATRY' },
  { code: 'PSYCHOLOGY' },
  { code: 'PULMONOLOGY' },
  { code: 'PULMONARY_AND_CRITICAL_CARE_MEDICINE' },
  { code: 'RADIATION_ONCOLOGY' },
  { code: 'RADIOLOGY' },
  { code: 'RHEUMATOLOGY' },
  { code: 'SLEEP_MEDICINE' },
  { code: 'SPORTS_MEDICINE' },
  { code: 'THORACIC_SURGERY' },
  { code: 'UROLOGY' },
  { code: 'VASCULAR_SURGERY' },
  { code: 'URGENT_CARE' },
  { code: 'WOUND_CARE' },
] as const);
export type SpecialtyCode = (typeof specialties)[number]['code'];
export const SPECIALTY_CODES = frozen(codesOf(specialties));

/** The spec's default for a provider without a stated specialty. */
export const DEFAULT_SPECIALTY = 'FAMILY_MEDICINE' satisfies SpecialtyCode;

/** Care setting of the encounter (where the patient is), not the purpose of the visit. */
export const encounter_types = frozen([
  { code: 'AMBULATORY' },
  { code: 'INPATIENT' },
  { code: 'EMERGENCY' },
  { code: 'URGENT_CARE' },
  { code: 'OBSERVATION' },
  { code: 'TELEHEALTH' },
  { code: 'HOME_HEALTH' },
  { code: 'SKILLED_NURSING' },
  { code: 'LONG_TERM_CARE' },
  { code: 'INPATIENT_REHABILITATION' },
  { code: 'AMBULATORY_SURGERY' },
  { code: 'HOSPICE' },
  { code: 'PRE_ADMISSION_TESTING' },
] as const);
export type EncounterTypeCode = (typeof encounter_types)[number]['code'];
export const ENCOUNTER_TYPE_CODES = frozen(codesOf(encounter_types));

/** Purpose of the visit; drives the note template independently of the setting. */
export const visit_types = frozen([
  { code: 'NEW_PATIENT' },
  { code: 'ESTABLISHED_PATIENT' },
  { code: 'FOLLOW_UP' },
  { code: 'WELLNESS' },
  { code: 'ANNUAL_WELLNESS_VISIT' },
  { code: 'WELL_CHILD' },
  { code: 'SPORTS_PHYSICAL' },
  { code: 'ED' },
  { code: 'URGENT_CARE' },
  { code: 'TELEHEALTH' },
  { code: 'CONSULT' },
  { code: 'SECOND_OPINION' },
  { code: 'PROCEDURE' },
  { code: 'PRE_OP' },
  { code: 'POST_OP' },
  { code: 'ADMISSION' },
  { code: 'PROGRESS_NOTE' },
  { code: 'DISCHARGE' },
  { code: 'TRANSITION_OF_CARE' },
  { code: 'PRENATAL' },
  { code: 'POSTPARTUM' },
  { code: 'CHRONIC_CARE_MANAGEMENT' },
  { code: 'MEDICATION_MANAGEMENT' },
  { code: 'BEHAVIORAL_HEALTH' },
  { code: 'HOME_VISIT' },
  { code: 'NURSING_FACILITY' },
] as const);
export type VisitTypeCode = (typeof visit_types)[number]['code'];
export const VISIT_TYPE_CODES = frozen(codesOf(visit_types));

/** The documenting clinician's role in this encounter (a resident and an attending write differently). */
export const provider_roles = frozen([
  { code: 'ATTENDING' },
  { code: 'CONSULTING' },
  { code: 'PRIMARY_CARE' },
  { code: 'REFERRING' },
  { code: 'HOSPITALIST' },
  { code: 'SURGEON' },
  { code: 'ASSISTANT_SURGEON' },
  { code: 'ANESTHESIOLOGIST' },
  { code: 'RESIDENT' },
  { code: 'FELLOW' },
  { code: 'INTERN' },
  { code: 'MEDICAL_STUDENT' },
  { code: 'NURSE_PRACTITIONER' },
  { code: 'PHYSICIAN_ASSISTANT' },
  { code: 'CERTIFIED_NURSE_MIDWIFE' },
  { code: 'CLINICAL_NURSE_SPECIALIST' },
  { code: 'CERTIFIED_REGISTERED_NURSE_ANESTHETIST' },
  { code: 'REGISTERED_NURSE' },
  { code: 'PHARMACIST' },
  { code: 'PSYCHOLOGIST' },
  { code: 'SOCIAL_WORKER' },
  { code: 'DIETITIAN' },
  { code: 'PHYSICAL_THERAPIST' },
  { code: 'OCCUPATIONAL_THERAPIST' },
  { code: 'SPEECH_LANGUAGE_PATHOLOGIST' },
] as const);
export type ProviderRoleCode = (typeof provider_roles)[number]['code'];
export const PROVIDER_ROLE_CODES = frozen(codesOf(provider_roles));

// ---------------------------------------------------------------------------------------------
// Diagnoses
// ---------------------------------------------------------------------------------------------

/**
 * SNOMED is deliberately absent: it is no longer accepted in the diagnosis context. HCC is listed
 * because structured-data output carries it, but callers may not send it (see DIAGNOSIS_INPUT_CODE_TYPES).
 */
export const diagnosis_code_types = frozen([
  { code_type: 'ICD10' },
  { code_type: 'IMO' },
  { code_type: 'HCC' },
] as const);
export type DiagnosisCodeTypeCode = (typeof diagnosis_code_types)[number]['code_type'];
export const DIAGNOSIS_CODE_TYPE_CODES: readonly DiagnosisCodeTypeCode[] = frozen(
  diagnosis_code_types.map((t) => t.code_type),
);

/** HCC categories are derived by the service from ICD-10-CM codes, so a caller cannot assert one. */
export const DIAGNOSIS_INPUT_CODE_TYPES = frozen(['ICD10', 'IMO'] as const satisfies readonly DiagnosisCodeTypeCode[]);

// ---------------------------------------------------------------------------------------------
// Medication orders
// ---------------------------------------------------------------------------------------------

export const medication_coding_systems = frozen([{ code: 'RXCUI' }, { code: 'NDC' }] as const);
export type MedicationCodingSystemCode = (typeof medication_coding_systems)[number]['code'];
export const MEDICATION_CODING_SYSTEM_CODES = frozen(codesOf(medication_coding_systems));

/**
 * Units a prescriber states a dose in: dose-form counts (TAB, PUFF), masses and volumes, potency
 * units, and weight/BSA-based doses. Strengths inside a product name are not units of this list.
 */
export const medication_dosage_units = frozen([
  // Countable dose forms.
  { code: 'TAB' },
  { code: 'CAP' },
  { code: 'LOZENGE' },
  { code: 'TROCHE' },
  { code: 'FILM' },
  { code: 'WAFER' },
  { code: 'PACKET' },
  { code: 'PATCH' },
  { code: 'SUPP' },
  { code: 'ENEMA' },
  { code: 'RING' },
  { code: 'IMPLANT' },
  { code: 'PUFF' },
  { code: 'ACTUATION' },
  { code: 'INHALATION' },
  { code: 'NEBULE' },
  { code: 'SPRAY' },
  { code: 'DROP' },
  { code: 'APPLICATION' },
  { code: 'APPLICATORFUL' },
  { code: 'INJECTION' },
  { code: 'VIAL' },
  { code: 'AMPULE' },
  { code: 'SYRINGE' },
  { code: 'PEN' },
  { code: 'CARTRIDGE' },
  { code: 'KIT' },
  { code: 'DOSE' },
  // Mass.
  { code: 'G' },
  { code: 'MG' },
  { code: 'MCG' },
  { code: 'NG' },
  // Volume.
  { code: 'L' },
  { code: 'ML' },
  { code: 'TSP' },
  { code: 'TBSP' },
  { code: 'FL_OZ' },
  { code: 'CAPFUL' },
  { code: 'SCOOP' },
  // Length (topical pastes and ointments are dosed by ribbon length).
  { code: 'INCH' },
  { code: 'CM' },
  // Potency and amount of substance.
  { code: 'UNIT' },
  { code: 'IU' },
  { code: 'MILLION_UNITS' },
  { code: 'MEQ' },
  { code: 'MMOL' },
  // Weight- and body-surface-based doses.
  { code: 'MG_PER_KG' },
  { code: 'MCG_PER_KG' },
  { code: 'UNIT_PER_KG' },
  { code: 'MG_PER_M2' },
] as const);
export type DosageUnitCode = (typeof medication_dosage_units)[number]['code'];
export const DOSAGE_UNIT_CODES = frozen(codesOf(medication_dosage_units));

/** Human label for each dosage unit, written as it reads in a sig ("2 tablets", "5 mL"). */
export const DOSAGE_UNIT_LABELS: Readonly<Record<DosageUnitCode, string>> = frozen({
  TAB: 'tablet',
  CAP: 'capsule',
  LOZENGE: 'lozenge',
  TROCHE: 'troche',
  FILM: 'film',
  WAFER: 'wafer',
  PACKET: 'packet',
  PATCH: 'patch',
  SUPP: 'suppository',
  ENEMA: 'enema',
  RING: 'ring',
  IMPLANT: 'implant',
  PUFF: 'puff',
  ACTUATION: 'actuation',
  INHALATION: 'inhalation',
  NEBULE: 'nebule',
  SPRAY: 'spray',
  DROP: 'drop',
  APPLICATION: 'application',
  APPLICATORFUL: 'applicatorful',
  INJECTION: 'injection',
  VIAL: 'vial',
  AMPULE: 'ampule',
  SYRINGE: 'syringe',
  PEN: 'pen',
  CARTRIDGE: 'cartridge',
  KIT: 'kit',
  DOSE: 'dose',
  G: 'g',
  MG: 'mg',
  MCG: 'mcg',
  NG: 'ng',
  L: 'L',
  ML: 'mL',
  TSP: 'teaspoon',
  TBSP: 'tablespoon',
  FL_OZ: 'fl oz',
  CAPFUL: 'capful',
  SCOOP: 'scoop',
  INCH: 'inch',
  CM: 'cm',
  UNIT: 'unit',
  IU: 'IU',
  MILLION_UNITS: 'million units',
  MEQ: 'mEq',
  MMOL: 'mmol',
  MG_PER_KG: 'mg/kg',
  MCG_PER_KG: 'mcg/kg',
  UNIT_PER_KG: 'units/kg',
  MG_PER_M2: 'mg/m²',
});

export const medication_frequency_types = frozen([
  { code: 'ONE_A_DAY' },
  { code: 'TWO_A_DAY' },
  { code: 'THREE_A_DAY' },
  { code: 'FOUR_A_DAY' },
  { code: 'FIVE_A_DAY' },
  { code: 'EVERY_MORNING' },
  { code: 'EVERY_EVENING' },
  { code: 'AT_BEDTIME' },
  { code: 'EVERY_HOUR' },
  { code: 'EVERY_2_HOURS' },
  { code: 'EVERY_3_HOURS' },
  { code: 'EVERY_4_HOURS' },
  { code: 'EVERY_6_HOURS' },
  { code: 'EVERY_8_HOURS' },
  { code: 'EVERY_12_HOURS' },
  { code: 'EVERY_24_HOURS' },
  { code: 'EVERY_48_HOURS' },
  { code: 'EVERY_72_HOURS' },
  { code: 'EVERY_OTHER_DAY' },
  { code: 'ONCE_A_WEEK' },
  { code: 'TWICE_A_WEEK' },
  { code: 'THREE_TIMES_A_WEEK' },
  { code: 'EVERY_2_WEEKS' },
  { code: 'ONCE_A_MONTH' },
  { code: 'EVERY_3_MONTHS' },
  { code: 'EVERY_6_MONTHS' },
  { code: 'ONCE_A_YEAR' },
  { code: 'AS_NEEDED' },
  { code: 'ONCE' },
  { code: 'STAT' },
  { code: 'CONTINUOUS' },
] as const);
export type FrequencyTypeCode = (typeof medication_frequency_types)[number]['code'];
export const FREQUENCY_TYPE_CODES = frozen(codesOf(medication_frequency_types));

export interface FrequencyInfo {
  label: string;
  /** Conventional sig abbreviation, for matching dictated or EMR text; null where none is standard. */
  sig: string | null;
  /**
   * Scheduled doses per day, used for quantity and days-supply arithmetic. Null where it has no fixed
   * value: calendar-month intervals vary in length, and PRN, single, STAT and continuous orders have no
   * schedule.
   */
  dosesPerDay: number | null;
}

export const FREQUENCY_TYPE_INFO: Readonly<Record<FrequencyTypeCode, FrequencyInfo>> = frozen({
  ONE_A_DAY: { label: 'Once a day', sig: 'QD', dosesPerDay: 1 },
  TWO_A_DAY: { label: 'Twice a day', sig: 'BID', dosesPerDay: 2 },
  THREE_A_DAY: { label: 'Three times a day', sig: 'TID', dosesPerDay: 3 },
  FOUR_A_DAY: { label: 'Four times a day', sig: 'QID', dosesPerDay: 4 },
  FIVE_A_DAY: { label: 'Five times a day', sig: '5X/DAY', dosesPerDay: 5 },
  EVERY_MORNING: { label: 'Every morning', sig: 'QAM', dosesPerDay: 1 },
  EVERY_EVENING: { label: 'Every evening', sig: 'QPM', dosesPerDay: 1 },
  AT_BEDTIME: { label: 'At bedtime', sig: 'QHS', dosesPerDay: 1 },
  EVERY_HOUR: { label: 'Every hour', sig: 'Q1H', dosesPerDay: 24 },
  EVERY_2_HOURS: { label: 'Every 2 hours', sig: 'Q2H', dosesPerDay: 12 },
  EVERY_3_HOURS: { label: 'Every 3 hours', sig: 'Q3H', dosesPerDay: 8 },
  EVERY_4_HOURS: { label: 'Every 4 hours', sig: 'Q4H', dosesPerDay: 6 },
  EVERY_6_HOURS: { label: 'Every 6 hours', sig: 'Q6H', dosesPerDay: 4 },
  EVERY_8_HOURS: { label: 'Every 8 hours', sig: 'Q8H', dosesPerDay: 3 },
  EVERY_12_HOURS: { label: 'Every 12 hours', sig: 'Q12H', dosesPerDay: 2 },
  EVERY_24_HOURS: { label: 'Every 24 hours', sig: 'Q24H', dosesPerDay: 1 },
  EVERY_48_HOURS: { label: 'Every 48 hours', sig: 'Q48H', dosesPerDay: 1 / 2 },
  EVERY_72_HOURS: { label: 'Every 72 hours', sig: 'Q72H', dosesPerDay: 1 / 3 },
  EVERY_OTHER_DAY: { label: 'Every other day', sig: 'QOD', dosesPerDay: 1 / 2 },
  ONCE_A_WEEK: { label: 'Once a week', sig: 'QWK', dosesPerDay: 1 / 7 },
  TWICE_A_WEEK: { label: 'Twice a week', sig: '2X/WK', dosesPerDay: 2 / 7 },
  THREE_TIMES_A_WEEK: { label: 'Three times a week', sig: '3X/WK', dosesPerDay: 3 / 7 },
  EVERY_2_WEEKS: { label: 'Every 2 weeks', sig: 'Q2WK', dosesPerDay: 1 / 14 },
  ONCE_A_MONTH: { label: 'Once a month', sig: 'QMO', dosesPerDay: null },
  EVERY_3_MONTHS: { label: 'Every 3 months', sig: 'Q3MO', dosesPerDay: null },
  EVERY_6_MONTHS: { label: 'Every 6 months', sig: 'Q6MO', dosesPerDay: null },
  ONCE_A_YEAR: { label: 'Once a year', sig: null, dosesPerDay: null },
  AS_NEEDED: { label: 'As needed', sig: 'PRN', dosesPerDay: null },
  ONCE: { label: 'Once', sig: 'ONCE', dosesPerDay: null },
  STAT: { label: 'Immediately', sig: 'STAT', dosesPerDay: null },
  CONTINUOUS: { label: 'Continuous', sig: null, dosesPerDay: null },
});

/** When to take a dose relative to meals, sleep or symptoms; the frequency says how often. */
export const medication_timings = frozen([
  { code: 'WITH_MEALS' },
  { code: 'BEFORE_MEALS' },
  { code: 'AFTER_MEALS' },
  { code: 'WITH_FOOD' },
  { code: 'ON_EMPTY_STOMACH' },
  { code: 'BEFORE_BREAKFAST' },
  { code: 'WITH_BREAKFAST' },
  { code: 'BEFORE_DINNER' },
  { code: 'WITH_DINNER' },
  { code: 'UPON_WAKING' },
  { code: 'IN_THE_MORNING' },
  { code: 'IN_THE_AFTERNOON' },
  { code: 'IN_THE_EVENING' },
  { code: 'AT_BEDTIME' },
  { code: 'AT_ONSET_OF_SYMPTOMS' },
  { code: 'BEFORE_ACTIVITY' },
  { code: 'BEFORE_PROCEDURE' },
  { code: 'AFTER_DIALYSIS' },
] as const);
export type MedicationTimingCode = (typeof medication_timings)[number]['code'];
export const MEDICATION_TIMING_CODES = frozen(codesOf(medication_timings));

/**
 * Status of an order relative to this encounter, in medication-reconciliation terms. DISCONTINUED and
 * REFILLED are only valid for a medication the patient is already on (checked against the EMR context).
 */
export const medication_order_statuses = frozen([
  { code: 'NEW' },
  { code: 'ACTIVE' },
  { code: 'CONTINUED' },
  { code: 'CHANGED' },
  { code: 'REFILLED' },
  { code: 'ON_HOLD' },
  { code: 'DISCONTINUED' },
  { code: 'COMPLETED' },
  { code: 'CANCELLED' },
] as const);
export type MedicationOrderStatusCode = (typeof medication_order_statuses)[number]['code'];
export const MEDICATION_ORDER_STATUS_CODES = frozen(codesOf(medication_order_statuses));

export const order_encounter_relations = frozen([
  { code: 'CURRENT_ENCOUNTER' },
  { code: 'PRIOR_ENCOUNTER' },
] as const);
export type EncounterRelationCode = (typeof order_encounter_relations)[number]['code'];
export const ENCOUNTER_RELATION_CODES = frozen(codesOf(order_encounter_relations));

/**
 * Who produced an order: AMBIENT is this service extracting it from the conversation (the spec's
 * vendor-branded SUKI_AMBIENT, kept brand-neutral), EMR came in with the context, USER is a clinician edit.
 */
export const order_origins = frozen([{ code: 'AMBIENT' }, { code: 'EMR' }, { code: 'USER' }] as const);
export type OrderOriginCode = (typeof order_origins)[number]['code'];
export const ORDER_ORIGIN_CODES = frozen(codesOf(order_origins));

// ---------------------------------------------------------------------------------------------
// Embedded Forms
// ---------------------------------------------------------------------------------------------

/** Lowercase, unlike every other list, because the spec names them so. */
export const structured_data_field_types = frozen([
  { code: 'text' },
  { code: 'radio' },
  { code: 'multi_select' },
  { code: 'date' },
] as const);
export type FieldTypeCode = (typeof structured_data_field_types)[number]['code'];
export const FIELD_TYPE_CODES = frozen(codesOf(structured_data_field_types));
