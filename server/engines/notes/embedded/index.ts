import { defaultCodeIndex, type CodeIndex } from '@/server/codesets/index';
import type { LeftOutItem, NoteSectionRequest, NoteRequest, NoteResult, NoteSection, NotesEngine, RewriteRequest, SectionStructuredValues } from '../types';
import { analyze } from './analyze';
import type { Block, NoteContext, Piece } from './compose';
import { complaintFromProblems, statedComplaint } from './complaint';
import { diagnoses } from './diagnoses';
import { allergies, unreadAllergyAnswers } from './allergies';
import { unreadDoses } from './unread-doses';
import { joinCutLines, withJoinedIds } from './join-cut-lines';
import { serviceOrders } from './service-orders';
import { examBlocks, resultPieces } from './exam';
import { familyHistory } from './family-history';
import { complaintInReview, historyFacts, openingSentence } from './history';
import { addSigs, allergyPieces, doseText, medicationOrders, orderLine, prnText, sayChanges } from './medications';
import { planBlocks, planProblems } from './plan';
import { CHRONIC, addManagedProblems } from './managed';
import { continuedAsActive } from '../continued-orders';
import { fillForm, findTemplate } from './forms';
import { DEFAULT_NOTE_SECTIONS, SECTION_TITLES } from './vocab';
import { ROS_SYSTEMS } from './lexicon';
import { rewriteText } from './rewrite';
import { capitalize } from './text';
import { contextTerms } from './soundalike';
import { hasUnclear, resolveUnclear, showUnclear, trustedText } from './unclear';
import { writtenSentence } from './written';

export interface EmbeddedEngineOptions { codes?: CodeIndex }

const ROS_ORDER = ROS_SYSTEMS.map(([system]) => system);


/** Scribes write units as abbreviations: "500 milligrams" → "500 mg". */
function scribeUnits(text: string): string {
  return text
    // The recogniser may write the unit as two words: "250 micro grams" → "250 mcg".
    .replace(/\b(\d+(?:\.\d+)?) (milli ?grams?|micro ?grams?|milli ?liters?)\b/gi, (_m, n: string, u: string) => `${n} ${/^milli ?g/i.test(u) ? 'mg' : /^micro/i.test(u) ? 'mcg' : 'mL'}`)
    // "40 mg a day" → "40 mg daily", "twice a day" → "twice daily".
    .replace(/\b(\d+ (?:mg|mcg|mL|units?|tablets?|pills?)|twice|three times|four times) (?:a|per) day\b/gi, '$1 daily')
    .replace(/\b(\d+ (?:mg|mcg|mL|units?|tablets?|pills?)) once (?:a|per) day\b/gi, '$1 daily')
    // Grades and scores: "3 out of 6 systolic murmur" → "3/6", "pain is 7 out of 10" → "7/10".
    .replace(/\b(\d+) out of (\d+)\b/g, '$1/$2');
}

const CONTRACTIONS: Record<string, string> = {
  "it's": 'it is', "that's": 'that is', "there's": 'there is', "what's": 'what is', "don't": 'do not', "doesn't": 'does not', "didn't": 'did not',
  "can't": 'cannot', "won't": 'will not', "isn't": 'is not', "wasn't": 'was not', "aren't": 'are not', "weren't": 'were not', "haven't": 'have not',
  "hasn't": 'has not', "wouldn't": 'would not', "couldn't": 'could not', "shouldn't": 'should not', "we'll": 'we will', "we're": 'we are', "they're": 'they are',
};
/** Notes are written out in full: "it's" → "it is". */
function formal(text: string): string {
  return text.replace(/\b(?:it|that|there|what|don|doesn|didn|can|won|isn|wasn|aren|weren|haven|hasn|wouldn|couldn|shouldn|we|they)'(?:s|t|ll|re)\b/gi, (m) => {
    const full = CONTRACTIONS[m.toLowerCase()];
    if (!full) return m;
    return m[0] === m[0].toUpperCase() ? full[0].toUpperCase() + full.slice(1) : full;
  });
}

/**
 * `write` puts the engine's own sentences in the note's voice after what was unsure is left out, so that what is
 * still speech to someone in the room goes (issue 27); the clinician's precharted text and template text are kept as they are.
 */
function render(blocks: Block[], bulleted: boolean, loinc: string, leftOut: LeftOutItem[], write: (p: Piece, text: string) => string): { content: string; sentences: Piece[] } {
  const lines: string[] = [];
  const sentences: Piece[] = [];
  for (const raw of blocks) {
    const b = { ...raw, pieces: raw.pieces.map((p) => ({ ...p, text: write(p, formal(scribeUnits(resolveUnclear(p.text)))) })).filter((p) => p.text) };
    // What the recogniser was unsure of is left out of the note and listed for the review (issue 27).
    for (const p of raw.pieces)
      if (hasUnclear(p.text)) {
        const kept = resolveUnclear(p.text);
        leftOut.push({ reason: 'LOW_CONFIDENCE', kind: kept ? 'span' : 'sentence', text: showUnclear(p.text), loinc_code: loinc, source_transcripts: p.src });
      }
    if (!b.heading && !b.pieces.length) continue;
    if (b.para && lines.length) lines.push('');
    if (b.heading) { lines.push(b.heading); continue; }
    sentences.push(...b.pieces);
    if (bulleted && !b.label) {
      for (const p of b.pieces) lines.push(`• ${p.text}`);
      continue;
    }
    const body = b.pieces.map((p) => p.text).join(' ');
    const label = b.label ? `${b.label}: ` : '';
    lines.push(`${b.bullet || bulleted ? '• ' : ''}${label}${body}`.replace(/^• Patient Agreements/, 'Patient Agreements'));
  }
  return { content: lines.join('\n').trim(), sentences };
}

function missingFields(o: NoteResult['structured_data']['orders']['medication_orders']['values'][number]): string {
  if (o.status !== 'NEW' && o.status !== 'CHANGED') return '';
  const missing = [o.dosage.quantity === null ? 'dose' : '', o.frequency.structured_value === null ? 'frequency' : ''].filter(Boolean);
  return missing.length ? ` (${missing.join(' and ')} not stated)` : '';
}

/**
 * A diagnosis note is up to two plan sentences: each is resolved on its own, so an unsure span in the second leaves
 * the first whole and drops the second if too little of it is clear ("Their asthma is not well controlled. We will."
 * was one sentence's clear prefix, from a recorded visit of 28 Nov).
 */
const resolveSentences = (text: string) =>
  text
    .split(/(?<=[.!?])\s+(?=[A-Z])/)
    .map(resolveUnclear)
    .filter(Boolean)
    .join(' ');
export class EmbeddedNotesEngine implements NotesEngine {
  readonly name = 'embedded';
  private codes: CodeIndex;
  constructor(opts: EmbeddedEngineOptions = {}) {
    this.codes = opts.codes ?? defaultCodeIndex();
  }

  async generate(req: NoteRequest): Promise<NoteResult> {
    return this.generateSync(req);
  }

  generateSync(req: NoteRequest): NoteResult {
    // Low-confidence spans are recovered as sound-alike terms or marked unclear before anything reads them.
    const terms = contextTerms(req);
    const heard = req.transcript.map((l) => ({ ...l, text: trustedText(l, terms) }));
    const unsure = new Set(heard.filter((l) => hasUnclear(l.text)).map((l) => l.transcriptId));
    const { lines: whole, joined } = joinCutLines(heard);
    const analysis = analyze(whole, req.patient?.sex);
    const ctx: NoteContext = { analysis, req, codes: this.codes, model: req.hccModel ?? 'V28', verbosity: req.preferences?.verbosity ?? 'BALANCED' };
    // Chief complaint: what the visit was booked for or opened on, else the first problem raised.
    const stated = statedComplaint(ctx);
    const { problems, orphan } = planProblems(ctx, stated?.bodyPart ? stated : undefined);
    const found = stated ?? complaintFromProblems(analysis, problems);
    let cc = found?.text;
    const ccSrc = found?.src ?? [];
    if (cc && hasUnclear(cc)) cc = undefined;
    ctx.complaint = cc;
    const meds = medicationOrders(ctx, problems);
    addManagedProblems(ctx, problems, orphan, [...meds.values, ...meds.partial]);
    ctx.pmh = problems.filter((p) => CHRONIC.test(p.code) && p.name.toLowerCase() !== cc?.toLowerCase()).map((p) => p.name.toLowerCase().replace(/\b(chf|copd|gerd|ckd)\b/g, (m) => m.toUpperCase()));
    const opener = openingSentence(ctx, cc);
    if (opener) {
      const demo = analysis.sentences.find((s) => /\b\d+[- ]years?[- ]old\b/.test(s.text));
      opener.src = [...new Set([...(demo ? [demo.tid] : []), ...ccSrc])];
    }
    const history = historyFacts(ctx);
    if (cc) complaintInReview(history.ros, cc, ccSrc);
    for (const p of problems) addSigs(p.treatment, meds.values);
    for (const p of problems) sayChanges([...p.treatment, ...p.reasoning], meds.values, meds.taken);
    sayChanges(orphan, meds.values, meds.taken);

    const wanted: NoteSectionRequest[] = req.sections?.length ? req.sections : DEFAULT_NOTE_SECTIONS.map((loinc) => ({ loinc }));
    const summary: NoteSection[] = [];
    const leftOut: LeftOutItem[] = [];
    const structured: SectionStructuredValues[] = [];
    for (const sec of wanted) {
      const bulleted = req.preferences?.sectionFormat?.[sec.loinc] === 'BULLETED';
      let blocks: Block[] = [];
      switch (sec.loinc) {
        case '10154-3':
        case '29299-5':
          if (cc) blocks = [{ pieces: [{ text: `${capitalize(cc.replace(/\.$/, '').replace(/^(?:some|complaints? of) /i, ''))}.`, src: ccSrc }] }];
          break;
        case '10164-2':
        case '61150-9': {
          const paras = history.hpi.map((pieces, i) => ({ pieces: i === 0 && opener && !/\d+-year-old/.test(pieces[0]?.text ?? '') ? [opener, ...pieces] : pieces, para: true }));
          if (!paras.length && opener) paras.push({ pieces: [opener], para: true });
          // A note without a family history section tells it in the history, as scribes do.
          const family = wanted.some((w) => w.loinc === '10157-6') ? [] : familyHistory(ctx);
          if (family.length) paras.push({ pieces: family, para: true });
          blocks = paras;
          break;
        }
        case '10187-3':
          // Systems in the conventional head-to-toe order scribes list them in.
          blocks = [...history.ros].sort(([x], [y]) => ROS_ORDER.indexOf(x) - ROS_ORDER.indexOf(y)).map(([system, e]) => {
            const parts: string[] = [];
            if (e.pos.size) parts.push(`Endorses ${[...e.pos].join(', ')}.`);
            if (e.neg.size) parts.push(`Denies ${[...e.neg].filter((x) => !e.pos.has(x)).join(', ')}.`.replace(/^Denies \.$/, ''));
            return { label: system, pieces: [{ text: parts.filter(Boolean).join(' '), src: [...e.src] }], bullet: true };
          }).filter((b) => b.pieces[0].text);
          break;
        case '10157-6':
          blocks = familyHistory(ctx).map((p) => ({ pieces: [p] }));
          break;
        case '29545-1':
          blocks = examBlocks(ctx);
          break;
        case '30954-2':
          blocks = resultPieces(ctx).map((p) => ({ pieces: [p], para: true }));
          break;
        case '51847-2':
          blocks = planBlocks(ctx, problems, orphan, opener);
          break;
        case '51848-0':
        case '11450-4':
          blocks = problems.map((p) => ({ pieces: [{ text: `${p.name}.`, src: p.mentions.slice(0, 1).map((m) => m.sentence.tid) }], bullet: true }));
          break;
        case '18776-5':
          blocks = planBlocks(ctx, problems, orphan).filter((b) => b.label !== 'Medical Reasoning');
          break;
        case '10160-0':
          // Orders still missing a dose or frequency are listed with what is missing, for the clinician to complete.
          blocks = [...meds.current, ...[...meds.values, ...meds.partial.filter((o) => missingFields(o))].filter((o) => !meds.currentIngredients.has(o.drug_name)).map((o) => ({
            text: o.status === 'CHANGED' && meds.taken.has(o.drug_name) && !missingFields(o)
              ? orderLine(o, meds.taken.get(o.drug_name))
              : o.status === 'DISCONTINUED'
                ? `${capitalize(o.drug_name)}: stopped at this visit.`
                : `${capitalize(o.drug_name)}${doseText(o) ? ` ${doseText(o)}` : o.dosage.quantity !== null ? ` ${o.dosage.quantity}` : ''}${[o.frequency.raw_value, prnText(o)].filter(Boolean).map((w) => ` ${w}`).join('')}${missingFields(o)}.`,
            src: meds.sources.get(o.drug_name) ?? [],
          }))].map((p) => ({ pieces: [p], bullet: bulleted }));
          break;
        case '48765-2':
          blocks = allergyPieces(ctx).map((p) => ({ pieces: [p] }));
          break;
      }
      // Precharted text is the clinician's own; it leads the section and is never rewritten.
      const pre: Block[] = [];
      for (const item of sec.precharted ?? []) {
        if (item.type === 'string' && item.content.trim()) pre.push({ pieces: [{ text: item.content.trim(), src: [] }], para: true });
        if (item.type === 'structured') {
          const tpl = findTemplate(item.template_id);
          const values = tpl ? fillForm(analysis, tpl, item.values) : item.values ?? [];
          structured.push({ loinc: sec.loinc, template_id: item.template_id, values });
        }
      }
      const { content, sentences } = render([...pre, ...blocks], bulleted, sec.loinc, leftOut, (p, text) => (p.template || pre.some((b) => b.pieces.includes(p)) ? text : writtenSentence(text, analysis.sex)));
      const src = [...new Set(sentences.flatMap((p) => p.src))];
      summary.push({
        title: SECTION_TITLES[sec.loinc] ?? sec.loinc,
        content,
        loinc_code: sec.loinc,
        source_transcripts: src,
        sentences: sentences.map((p) => ({ text: p.text, source_transcripts: p.src, ...(p.template ? { template: true } : {}) })),
      });
    }
    // An order whose sig was said unsure keeps only what was clear; the clinician completes it.
    for (const o of meds.partial)
      if ((o.source_transcripts ?? []).some((id) => unsure.has(id)))
        leftOut.push({ reason: 'LOW_CONFIDENCE', kind: 'medication_order', text: `${o.drug_name}: ${[o.dosage.quantity === null ? 'dose' : '', o.frequency.structured_value === null ? 'frequency' : ''].filter(Boolean).join(' and ') || 'sig'} not clear`, source_transcripts: o.source_transcripts ?? [] });
    const coded = allergies(ctx);
    leftOut.push(...unreadAllergyAnswers(ctx, coded));
    leftOut.push(...unreadDoses(ctx, [...meds.values, ...meds.partial], meds.taken.values()));
    return withJoinedIds({
      ...(leftOut.length ? { left_out: leftOut } : {}),
      summary,
      structured_data: {
        diagnoses: { values: diagnoses(ctx, problems).map((d) => ({ ...d, diagnosis_note: formal(scribeUnits(resolveSentences(d.diagnosis_note))) || `${d.codes[0].description}.` })) },
        orders: { medication_orders: { values: meds.values.map(continuedAsActive), partial_values: meds.partial.map(continuedAsActive) }, service_orders: { values: serviceOrders(ctx) } },
        allergies: { values: coded },
        section_structured_values: structured,
      },
    }, joined);
  }

  async rewrite(req: RewriteRequest): Promise<string> {
    return rewriteText(req.selectedText, req.instruction);
  }
}

/** Plain-text note with the headings clinicians write, empty sections left out. */
export function noteToText(result: NoteResult): string {
  return result.summary
    .filter((s) => s.content.trim())
    .map((s) => `${s.title}\n\n${s.content}`)
    .join('\n\n');
}
