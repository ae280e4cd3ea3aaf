import { FORM_TEMPLATES, type FormTemplate } from '@/lib/info';
import type { SectionStructuredValues } from '../types';
import { NO, YES, type Analysis, type Sentence } from './analyze';
import { tokenize } from './lexicon';

const STOP = new Set(['the', 'a', 'an', 'of', 'or', 'and', 'to', 'in', 'on', 'you', 'your', 'have', 'has', 'do', 'did', 'are', 'is', 'been', 'any', 'for', 'by', 'with', 'that', 'how', 'often', 'what', 'if', 'yes', 'over', 'last', 'bothered', 'following', 'problems']);
const content = (t: string) => tokenize(t).filter((w) => !STOP.has(w) && w.length > 2).map((w) => w.replace(/(ing|ed|s)$/, ''));

function overlap(label: string, text: string): number {
  const l = new Set(content(label));
  if (!l.size) return 0;
  const t = new Set(content(text));
  let n = 0;
  for (const w of l) if (t.has(w)) n++;
  return n / l.size;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
function parseDate(text: string): string | null {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (iso) return iso[0];
  const m = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?`, 'i').exec(text);
  if (m && m[3]) return `${m[3]}-${String(MONTHS.indexOf(m[1].toLowerCase()) + 1).padStart(2, '0')}-${m[2].padStart(2, '0')}`;
  const us = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(text);
  if (us) return `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}`;
  return null;
}

const FREQUENCY_ANSWERS: Array<[RegExp, string]> = [
  [/\b(not at all|never|no\b|none)/i, 'Not at all'],
  [/\b(nearly every day|almost every day|every day|all the time|daily|constantly)/i, 'Nearly every day'],
  [/\b(more than half|most days|a lot of days|over half)/i, 'More than half the days'],
  [/\b(several days|a few days|some days|sometimes|a couple of days|once in a while|occasionally)/i, 'Several days'],
];

/** The clinician sentence best matching the field label and the patient's reply to it. */
function findExchange(analysis: Analysis, label: string): { q: Sentence; answer: Sentence[] } | undefined {
  let best: { q: Sentence; score: number } | undefined;
  for (const s of analysis.sentences) {
    if (s.role !== 'CLINICIAN') continue;
    const sc = overlap(label, s.text);
    if (sc >= 0.5 && (!best || sc > best.score)) best = { q: s, score: sc };
  }
  if (!best) return undefined;
  const next = analysis.turns.slice(best.q.turn + 1).find((t) => t.role === 'PATIENT');
  return { q: best.q, answer: next?.sentences ?? [] };
}

/**
 * Fills an Embedded Form from the conversation. Values the partner prefilled are kept; a field is
 * only answered when the conversation contains the question and a reply that fits the field type.
 */
export function fillForm(analysis: Analysis, template: FormTemplate, prefilled: Array<{ id: string; value: unknown }> = []): SectionStructuredValues['values'] {
  const values = new Map(prefilled.map((v) => [v.id, v.value]));
  const allPatient = analysis.sentences.filter((s) => s.role === 'PATIENT').map((s) => s.text).join(' ');
  for (const field of template.fields) {
    if (values.has(field.id)) continue;
    const ex = findExchange(analysis, field.label);
    const reply = ex?.answer.map((s) => s.text).join(' ') ?? '';
    if (field.type === 'radio' && field.options) {
      if (!ex || !reply) continue;
      const opts = field.options;
      if (opts.includes('Yes') && opts.includes('No')) {
        if (NO.test(reply.trim())) values.set(field.id, 'No');
        else if (YES.test(reply.trim())) values.set(field.id, 'Yes');
        continue;
      }
      const direct = opts.find((o) => reply.toLowerCase().includes(o.toLowerCase()));
      if (direct) { values.set(field.id, direct); continue; }
      const freq = FREQUENCY_ANSWERS.find(([re, opt]) => opts.includes(opt) && re.test(reply));
      if (freq) { values.set(field.id, freq[1]); continue; }
      const num = /\b(\d{1,2})\b/.exec(reply)?.[1];
      if (num && opts.includes(num)) values.set(field.id, num);
    } else if (field.type === 'multi_select' && field.options) {
      const text = (reply || allPatient).toLowerCase();
      const picked = field.options.filter((o) => {
        const words = content(o);
        if (!words.length) return false;
        const idx = text.indexOf(o.toLowerCase().split(/[ (,]/)[0]);
        if (idx < 0) return false;
        return !/\b(no|not|never|don't|denies)\b[^.]{0,25}$/.test(text.slice(Math.max(0, idx - 30), idx));
      });
      if (picked.length) values.set(field.id, picked);
    } else if (field.type === 'date') {
      const d = parseDate(reply) ?? (ex ? parseDate(ex.q.text) : null);
      if (d) values.set(field.id, d);
    } else if (field.type === 'text') {
      if (!ex || !reply) continue;
      const num = /\b\d+(?:\.\d+)?\b/.exec(reply)?.[0];
      values.set(field.id, num ?? reply.replace(/^(yes|yeah|no|well|um|so)[, ]+/i, '').trim());
    }
  }
  return [...values].map(([id, value]) => ({ id, value }));
}

export function findTemplate(id: string): FormTemplate | undefined {
  return (FORM_TEMPLATES as readonly FormTemplate[]).find((t) => t.template_id === id);
}
