/** What the section composers share: note pieces, the note context, filler stripping, question topics. */
import type { CodeIndex, HccModel } from '@/server/codesets/index';
import type { NoteRequest } from '../types';
import type { Analysis, Sentence } from './analyze';
import { removeDisfluencies } from './text';

/** A note sentence; `template` marks fixed wording of the engine (the verbosity preference's scribe style), not words of the visit. */
export interface Piece { text: string; src: string[]; template?: boolean }
export interface Block { label?: string; pieces: Piece[]; para?: boolean; bullet?: boolean; heading?: string }
export type Verbosity = NoteRequest['preferences']['verbosity'];

// "no" is a filler only as its own reply ("no, I haven't"); "no belly pain" is a finding.
const FILLER_START = /^(?:(?:(?:okay|ok|alright|all right|so|well|yeah|yes|yep|um|uh|and|but|oh|you know|like|now|right|sure|great|good|perfect|mm|wow|gosh|my gosh|actually|honestly|basically)[,.!]?|no[,.!])\s+)+/i;
export const CHITCHAT = /\b(how are you|nice to (?:meet|see)|thank you|thanks|good morning|good afternoon|weather|weekend|vacation|hey dragon|dragon|the nurse|any questions|sounds good|that's great|i'm glad|see you|have a good|take care|bye)\b/i;
export const CLINICAL =
  /\b(pain|hurt|hurts|ache|aching|sore|swell|swelling|swollen|feel|feeling|felt|medication|medicine|pill|pills|doctor|hospital|surgery|emergency|er|blood|sugar|sugars|pressure|sleep|sleeping|eat|eating|diet|exercise|walk|walking|work|taking|take|took|started|start|worse|better|help|helped|helps|weeks?|days?|months?|years?|ago|since|morning|night|tried|try|notice|noticed|symptoms?|numb|tingling|dizzy|tired|weight|pounds|fell|fall|injur|twist|pop|lift|running|bend|stairs|therapy|appointment|smok|drink|alcohol|cough|breath|breathing|fever|vomit|nause|diarrh|rash|itch|stress|anxious|depress|mood)\w*/i;

export function stripFiller(s: string): string {
  return removeDisfluencies(s.replace(FILLER_START, '')).replace(FILLER_START, '').trim();
}

const QUESTION_LEADS: RegExp[] = [
  /^(?:do|did|have|are|were) you (?:have|had|having|been having|ever had|experience|experienced|experiencing|notice|noticed|noticing|get|getting|feel|feeling|see|seen|develop|developed)\s+(?:any\s+|a\s+|an\s+)?(.+)$/i,
  /^(?:any|anything like|any other)\s+(.+)$/i,
  /^(?:have you had|has there been|is there|are there|was there)\s+(?:any\s+)?(.+)$/i,
  /^(?:does it|did it|is it|does that|did that|is that)\s+(.+)$/i,
  /^(?:are you|were you)\s+(.+)$/i,
  // "Still taking the metformin?" said without its "are you".
  /^still\s+((?:taking|on|using)\s+.+)$/i,
];

/** "any chest pain or shortness of breath" → "chest pain or shortness of breath". */
export function questionTopic(q: string): string | null {
  let t = stripFiller(q.replace(/[?.!]+$/, '')).toLowerCase();
  t = t.replace(/^(?:and|so|now|okay|also|then|but)\s+/g, '');
  for (const re of QUESTION_LEADS) {
    const m = re.exec(t);
    if (m) {
      const topic = m[1].replace(/\b(at all|recently|lately|today|right now|or anything( like that)?|anything like that|or not)\b/g, '').replace(/\s+/g, ' ').trim();
      if (topic && topic.split(' ').length <= 10) return topic;
    }
  }
  return null;
}

export interface NoteContext {
  /** The transcript read as turns and sentences, with who spoke, the patient's sex and age, and where the exam and plan start. */
  analysis: Analysis;
  req: NoteRequest;
  codes: CodeIndex;
  model: HccModel;
  verbosity: Verbosity;
  /** Chronic conditions named in the one-liner ("past medical history significant for …"). */
  pmh?: string[];
  /** The chief complaint as written ("right knee pain"), for sections that refer back to it. */
  complaint?: string;
}

/** Previous clinician question for a patient turn: the yes/no questions that patient answers resolve. */
export function priorQuestion(ctx: NoteContext, s: Sentence): Sentence | undefined {
  const prevTurn = ctx.analysis.turns[s.turn - 1];
  if (!prevTurn || prevTurn.role !== 'CLINICIAN') return undefined;
  const last = prevTurn.sentences.at(-1);
  return last?.question ? last : undefined;
}
