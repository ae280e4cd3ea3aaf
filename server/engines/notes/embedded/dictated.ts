/**
 * Dictated assessment and plan ("Assessment: uncontrolled hypertension. Plan: start lisinopril, check a
 * basic metabolic panel, and follow up in four weeks."). Clinicians who dictate name the problem after a
 * label and list the plan as verb-led items; each item belongs under its own heading (treatment, testing,
 * follow-up), so the utterance is cut at the labels and at each item rather than pasted whole.
 * Recognisers drop the punctuation, so an unpunctuated "… plan start lisinopril …" is cut the same way.
 */
export const PLAN_VERB =
  '(?:start|begin|continue|stop|discontinue|hold|increase|decrease|check|recheck|order|obtain|get|draw|repeat|schedule|refer|follow up|follow-up|return|come back|add|switch|prescribe|monitor|see)';

export interface DictatedClause {
  text: string;
  /** The clause came after an "assessment:" label (names a problem) or is an item of a "plan:" list. */
  label?: 'assessment' | 'plan';
}

const ASSESSMENT_LABEL = /^(?:my\s+)?(?:assessment|impression|diagnosis)(?:\s+is)?\s*[:-]?\s*/i;
const PLAN_LABEL = new RegExp(`^(?:my\\s+|the\\s+)?plan(?:\\s+is)?(?:\\s+to)?\\s*(?:[:-]\\s*|(?=${PLAN_VERB}\\b))`, 'i');
const LABEL_CUT = new RegExp(`[.;,]?\\s+(?=(?:assessment|impression|plan)\\s*:)|\\s+(?=plan\\s+(?:is\\s+(?:to\\s+)?)?${PLAN_VERB}\\b)`, 'i');
// An unclear span inside a list (see unclear.ts) also ends an item: what it belonged to is unknown.
const IMPERATIVE = new RegExp(`^(?:UNCLEARSPAN\\s+)?(?:start|stop|continue|check|order|increase|decrease|refer|schedule)\\b`, 'i');
const ITEM_CUT = new RegExp(`\\s*[,;]\\s*(?:and\\s+|then\\s+)?(?=${PLAN_VERB}\\b)|\\s+(?:and|then)\\s+(?=${PLAN_VERB}\\b)|\\s+(?=UNCLEARSPAN\\b)|\\s+(?=(?:check|recheck|order|start|continue|stop|discontinue|increase|decrease|schedule|refer|follow up|repeat|obtain|draw)\\b)`, 'i');

/** Cuts one clinician sentence at assessment/plan labels and at the items of a dictated plan list. */
export function splitDictated(text: string): DictatedClause[] {
  const out: DictatedClause[] = [];
  for (const part of text.split(LABEL_CUT).map((x) => x.trim()).filter(Boolean)) {
    // An imperative list ("start lisinopril, check a panel, and follow up …") is a plan even when its
    // label was not heard or was unsure.
    const verbs = part.match(new RegExp(`\\b${PLAN_VERB}\\b`, 'gi'))?.length ?? 0;
    if (IMPERATIVE.test(part) && verbs >= 2) {
      for (const item of part.replace(/^UNCLEARSPAN\s+/i, '').split(ITEM_CUT).map((x) => x.trim().replace(/[.,;]+$/, '')).filter(Boolean)) out.push({ text: item, label: 'plan' });
      continue;
    }
    const plan = PLAN_LABEL.exec(part);
    if (plan && (/[:-]/.test(plan[0]) || plan[0].length < part.length)) {
      for (const item of part.slice(plan[0].length).split(ITEM_CUT).map((x) => x.trim().replace(/[.,;]+$/, '')).filter(Boolean)) out.push({ text: item, label: 'plan' });
      continue;
    }
    const assessment = ASSESSMENT_LABEL.exec(part);
    // Only a short labelled phrase is an assessment heading; "my assessment is that we should …" is talk.
    if (assessment && !/^that\b/i.test(part.slice(assessment[0].length)) && part.slice(assessment[0].length).split(/\s+/).length <= 8) {
      out.push({ text: part.slice(assessment[0].length).replace(/[.,;]+$/, ''), label: 'assessment' });
      continue;
    }
    out.push({ text: part });
  }
  return out;
}
