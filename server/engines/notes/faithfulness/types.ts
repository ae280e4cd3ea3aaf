/**
 * Shapes of the faithfulness checker (issue 27 item 1, reused by issue 32's guard). A fact is something a
 * note sentence asserts that can be checked against what was said: a number with its unit, a drug, a dose
 * bound to a drug, a frequency, a problem (or its negation), an allergy, a test, or a claim that the
 * patient agreed to something.
 */
import type { MedicationOrder, NoteRequest, NoteSection, StructuredData } from '../types';

export type FactKind = 'measurement' | 'dose' | 'frequency' | 'drug' | 'problem' | 'negation' | 'allergy' | 'test' | 'agreement';

export interface Fact {
  kind: FactKind;
  /** The words of the sentence the fact was read from (normalised: lower case, digits, unit abbreviations). */
  text: string;
  /**
   * What is compared: "10 mg" / "120/80" (measurement, dose), an info-list frequency code, an RxNorm
   * ingredient, an ICD-10-CM category (problem, negation), "allergy:<substance>" or "allergy:none", a test
   * group, "agreement".
   */
  key: string;
  /** Number and unit of a measurement or dose ("" when no unit was said). */
  value?: string;
  unit?: string;
  /** A problem's full ICD-10-CM code (the key is its category). */
  code?: string;
  /** The ingredient a dose was said with, when the sentence names one before it. */
  drug?: string;
  /** A problem said of a family member ("her mother has diabetes"). */
  family?: boolean;
  /** A problem named only to be looked for ("to rule out gallstones"): neither present nor denied. */
  hedged?: boolean;
  /** A problem said in a sentence about an allergy: the reaction ("it gives me a rash"), not a finding. */
  reaction?: boolean;
}

export type UnsupportedReason =
  | 'not-in-transcript'
  | 'negation-flip'
  | 'allergy-reaction-as-finding'
  | 'family-history-as-patient'
  | 'dose-not-with-drug'
  | 'contradicts-coded-order'
  | 'agreement-not-said';

export interface FactResult {
  fact: Fact;
  supported: boolean;
  reason?: UnsupportedReason;
  /** Transcript entry ids (or "context:…" for the session context) that state the fact. */
  evidence: string[];
}

export type TemplateKind = 'agreement' | 'counselling' | 'imaging-discussion' | 'follow-up' | 'opener' | 'normal-exam' | 'plan-item';
export type Misfiled = 'medication-in-exam' | 'allergy-in-findings';
export type SpeechFlag = 'unclear' | 'greeting' | 'addressed-speech';

export interface SentenceResult {
  section: string;
  loinc?: string;
  text: string;
  /** Fixed wording the engine writes (a closing, counselling or normal-exam line), with which one. */
  template?: TemplateKind;
  facts: FactResult[];
  /** Entries the engine said the sentence came from, and which of them hold what it says. */
  claimedEvidence: string[];
  verifiedEvidence: string[];
  /** Entries that hold what the sentence says, found anywhere in the transcript or context. */
  evidence: string[];
  noEvidence: boolean;
  flags: SpeechFlag[];
  /** A fact filed where a clinician does not look for it. */
  misfiled?: Misfiled;
}

export interface FaithfulnessReport {
  sentences: SentenceResult[];
  /** Coded diagnoses and medication orders, each checked as a sentence of its own (section "CODED DATA"). */
  coded: SentenceResult[];
  unsupported: Array<{ sentence: SentenceResult; result: FactResult }>;
}

/** A note to check: the engine's summary (sentences with their claimed sources) or plain text. */
export type NoteInput = string | { summary: NoteSection[]; structured_data?: StructuredData };

/** What the session knew before the visit: a fact found here is supported as well. */
export interface FaithfulnessContext {
  visit?: NoteRequest['visit'];
  emrContext?: NoteRequest['emrContext'];
  contextDiagnoses?: NoteRequest['contextDiagnoses'];
  contextMedicationOrders?: MedicationOrder[];
  /** Text the clinician wrote (precharted sections, template text from preferences). */
  clinicianText?: string[];
}

export interface Polarity { pos: boolean; neg: boolean }

/** One transcript entry (or context item) with what it states, built once per check. */
export interface EvidenceEntry {
  id: string;
  index: number;
  role: 'CLINICIAN' | 'PATIENT' | 'CONTEXT';
  text: string;
  tokens: Set<string>;
  facts: Array<Fact & { polarity: Polarity }>;
  agrees: boolean;
}
