/** Text utilities shared by the embedded engine: cleanup of recogniser output, sentences, voice conversion. */

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

/** "twenty five" → "25", "a hundred and twenty" → "120"; scribes write quantities as digits. */
const DIGIT_WORD = '(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\\d)';
const DIGIT_OF: Record<string, string> = { zero: '0', oh: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' };
const SPOKEN_DECIMAL = new RegExp(`\\b(?:(${DIGIT_WORD}|\\d+)\\s+)?point\\s+(${DIGIT_WORD}(?:\\s+${DIGIT_WORD})*)\\b`, 'gi');
const digitOf = (w: string) => DIGIT_OF[w.toLowerCase()] ?? w;

/** "zero point four" → "0.4", "one point five" → "1.5", "point two five" → "0.25": a dose's decimal point is said as "point". */
function spokenDecimals(text: string): string {
  return text.replace(SPOKEN_DECIMAL, (m, whole: string | undefined, frac: string) => {
    // "point" as a word ("at one point", "the point is") has no digits after it.
    if (!whole && !/^\s*point/i.test(m)) return m;
    return `${whole ? digitOf(whole) : '0'}.${frac.split(/\s+/).map(digitOf).join('')}`;
  });
}

// The emergency number is said digit by digit ("call nine one one"): its repeated "one" read as a stutter and the rest
// summed as a quantity, it became "call 10" (a browser trial, 7 Dec).
const EMERGENCY_NUMBER = /\bnine[\s-]+one[\s-]+one\b/gi;

export function wordsToDigits(text: string): string {
  const words = spokenDecimals(text.replace(EMERGENCY_NUMBER, '911')).split(/(\s+)/);
  const out: string[] = [];
  let i = 0;
  while (i < words.length) {
    const w = words[i].toLowerCase().replace(/[.,?!;:]+$/, '');
    if (w in SMALL || w in TENS || (w === 'hundred' && out.length === 0)) {
      let value = 0;
      let current = 0;
      let j = i;
      let consumed = i;
      let said = 0;
      let trail = '';
      while (j < words.length && !trail) {
        // Punctuation ends the number but stays in the text: "ninety seven." → "97.".
        const punct = /[.,?!;:]+$/.exec(words[j])?.[0] ?? '';
        const t = words[j].slice(0, words[j].length - punct.length).toLowerCase().replace(/-/g, ' ');
        if (/^\s+$/.test(words[j])) { j++; continue; }
        const parts = t.split(' ');
        let ok = true;
        for (const p of parts) {
          // A lone digit before tens or teens is the hundreds place said alone: "one sixty nine" → 169, "one fifteen" → 115.
          const hundreds = said === 1 && current >= 1 && current <= 9 && (p in TENS || (p in SMALL && SMALL[p] >= 10));
          said++;
          if (hundreds) current = current * 100 + (p in TENS ? TENS[p] : SMALL[p]);
          else if (p in SMALL) current += SMALL[p];
          else if (p in TENS) current += TENS[p];
          else if (p === 'hundred') current = (current || 1) * 100;
          else if (p === 'thousand') { value += (current || 1) * 1000; current = 0; }
          else if (p === 'and' && current >= 100) { /* "a hundred and twenty" */ }
          else { ok = false; break; }
        }
        if (!ok) break;
        j++;
        consumed = j;
        trail = punct;
      }
      const n = value + current;
      // "one" alone is usually a pronoun ("the right one"); keep it as a word.
      const span = words.slice(i, consumed).join('').trim().toLowerCase().replace(/[.,?!;:]+$/, '');
      if (span === 'one' || span === 'and' || span === '') { out.push(words[i]); i++; continue; }
      out.push(String(n) + trail);
      i = consumed;
      continue;
    }
    out.push(words[i]);
    i++;
  }
  return out.join('');
}

// Words a single letter names a kind of, said before it ("hepatitis c", "vitamin d", "group b strep"), and after it ("c diff").
const NAMED_BY_LETTER = /\b(?:hepatitis|hep|vitamin|factor|group|strep|protein)\s+$/i;
const LETTER_NAMES = /^\s*(?:diff|difficile|coli|pylori|section|ray|rays)\b/i;

/** Undo the tokenised style of the corpus and common recogniser artefacts ("do n't", "gon na", "um"). */
export function cleanUtterance(text: string): string {
  let t = ` ${text} `.replace(EMERGENCY_NUMBER, '911');
  t = t.replace(/\s+n't\b/g, "n't").replace(/\s+'(s|re|ve|ll|d|m)\b/g, "'$1");
  t = t.replace(/\bgon na\b/gi, 'going to').replace(/\bwan na\b/gi, 'want to').replace(/\bgot ta\b/gi, 'got to');
  t = t.replace(/\b(um+|uh+|uhm|hmm+|mm-hmm|mm|uh-huh|er|ah)\b[,.]?/gi, ' ');
  // The corpus detaches a hyphen from a number: "45 -year-old".
  t = t.replace(/(\d) -(?=[a-z])/gi, '$1-');
  t = t.replace(/\s*\.\.\.\s*/g, ' ').replace(/-(\s|$)/g, ' ');
  // Restarts: "i don't i can't think" keeps what the speaker settled on.
  t = t.replace(/\b(i|we|he|she) (?:don't|do|can't|cannot|didn't|was|am|have|had|would|will|just|mean),? (?=\1 )/gi, '');
  // Stutters: "i , i think", "the the".
  for (let k = 0; k < 2; k++) t = t.replace(/\b(\w+(?:'\w+)?)(\s*,?\s+\1\b)+/gi, '$1');
  // Two-word restarts: "five hundred five hundred milligrams", "i think i think".
  t = t.replace(/\b(\w+(?:'\w+)? \w+(?:'\w+)?)(?:\s*,?\s+\1\b)+/gi, '$1');
  // "keep taking the" is heard as "keep take on the" (two recorded visits of issue 27); "take on" is no phrase of a visit.
  t = t.replace(/\b(keep|still|you|been|are|is|stop|start|continue|without) take on the\b/gi, '$1 taking the');
  // The recogniser's vocabulary has the possessive "months'" ("three months' supply"); an interval ends a clause without it.
  t = t.replace(/\b(days|weeks|months|years)'(?!\s+(?:supply|worth|time|notice)\b)/gi, '$1');
  // A1c said letter by letter ("hemoglobin a one c", "h b a one c"): one test name, and its "c" is no cut-off fragment.
  // Its "c" can carry a clipped "and" ("a one cm the basic metabolic panel", a recorded visit of issue 27).
  t = t.replace(/\b(?:h\s?b\s?)?a[\s-]?(?:one|1)[\s-]?c(?:\s?[mn](?=\s+(?:the|a|an|your|some)\s))?\b/gi, (m) => `${/^h/i.test(m) ? 'hba1c' : 'a1c'}${/c\s?[mn]$/i.test(m) ? ' and' : ''}`);
  // A lone "n" before a determiner is a clipped "and" ("an a1c n the basic metabolic panel"), not a fragment to drop.
  t = t.replace(/(\S) n (?=(?:the|a|an|your|some)\s)/gi, '$1 and ');
  // Cut-off word fragments ("i f- felt") leave single letters behind; a letter that is part of a name ("hepatitis c",
  // "vitamin d", "c diff", "e coli", "h pylori") is not one, and dropping it loses the condition.
  t = t.replace(/(^|\s)(?![aiAI]\b)([a-zA-Z])(?=\s)/g, (m, pre: string, _letter: string, at: number, all: string) =>
    NAMED_BY_LETTER.test(all.slice(0, at + pre.length)) || LETTER_NAMES.test(all.slice(at + m.length)) ? m : pre);
  t = t.replace(/\s+([,.?!;:])/g, '$1').replace(/([,.?!])(?=[^\s\d])/g, '$1 ');
  t = t.replace(/,(\s*,)+/g, ',').replace(/([.?!])\s*,\s*/g, '$1 ').replace(/^\s*[,.]\s*/, '');
  t = t.replace(/\s+/g, ' ').trim();
  return t;
}

/** Sentence split that keeps decimals ("1.5") and abbreviations ("dr.") intact. */
export function splitSentences(text: string): string[] {
  const parts = text.split(/(?<=[.?!])\s+(?=[a-z0-9"'])/i);
  const out: string[] = [];
  for (const p of parts) {
    const s = p.trim();
    if (!s) continue;
    if (out.length && /\b(dr|mr|mrs|ms|vs|st)\.$/i.test(out[out.length - 1])) out[out.length - 1] += ' ' + s;
    else out.push(s);
  }
  return out;
}

/** Long run-on utterances (the corpus often has no punctuation) are cut at discourse markers. */
export function splitRunOn(sentence: string, maxWords = 28): string[] {
  const words = sentence.split(/\s+/);
  if (words.length <= maxWords) return [sentence];
  const pieces = sentence.split(/\s+(?=(?:okay|alright|all right|so|now|and then|but|also|because|which)\s)/i);
  const out: string[] = [];
  let cur = '';
  for (const p of pieces) {
    if (cur && (cur + ' ' + p).split(/\s+/).length > maxWords) { out.push(cur); cur = p; } else cur = cur ? `${cur} ${p}` : p;
  }
  if (cur) out.push(cur);
  return out;
}

export function capitalize(s: string): string {
  return s.replace(/^\s*([a-z])/, (m) => m.toUpperCase());
}

export function finishSentence(s: string): string {
  let t = s.trim().replace(/[,;:\s-]+$/, '').replace(/\?$/, '.');
  if (!t) return '';
  t = t.replace(/\bi\b/g, 'I').replace(/\bI'm\b/g, 'I am').replace(/\b(\d+)[ -]years?[ -]old\b/g, '$1-year-old');
  if (!/[.!]$/.test(t)) t += '.';
  return capitalize(t);
}

export type Sex = 'female' | 'male' | undefined;
export function pronouns(sex: Sex) {
  if (sex === 'female') return { subj: 'she', obj: 'her', poss: 'her', refl: 'herself', title: 'The patient' };
  if (sex === 'male') return { subj: 'he', obj: 'him', poss: 'his', refl: 'himself', title: 'The patient' };
  return { subj: 'the patient', obj: 'the patient', poss: 'their', refl: 'themselves', title: 'The patient' };
}

const NOT_VERBS = new Set([
  'was', 'had', 'did', 'will', 'would', 'can', 'could', 'should', 'might', 'must', 'may', 'also', 'just', 'still', 'really',
  'usually', 'never', 'always', 'only', 'even', 'actually', 'definitely', 'probably', 'sometimes', 'think', 'guess',
  'mean', 'already', 'kind', 'sort', 'am', 'and', 'but', 'so', 'or', 'too', 'not', 'ever', 'often', 'recently', 'finally',
  'kinda', 'sorta', 'gotta', 'first', 'then', 'now', 'again', 'guess', 'believe', 'suppose',
  // Not verbs at all: a clause that puts one after "I" ("I during the week …") keeps it as it is, not "he durings".
  'during', 'in', 'on', 'at', 'for', 'with', 'about', 'to', 'from', 'the', 'a', 'an', 'if', 'when', 'while', 'after', 'before',
  'since', 'until', 'there', 'here', 'personally', 'myself', 'maybe', 'of', 'as', 'because', 'though',
  // The marker of an unsure span is no verb: "I UNCLEARSPAN this" must not become "he unclearspans this".
  'unclearspan',
]);
const ADVERBS = new Set(['also', 'just', 'still', 'really', 'usually', 'never', 'always', 'only', 'even', 'actually', 'definitely', 'probably', 'sometimes', 'often', 'recently', 'finally', 'kind of', 'generally', 'typically', 'normally']);
const IRREGULAR: Record<string, string> = { have: 'has', do: 'does', go: 'goes', am: 'is', "'m": 'is', be: 'is' };

function third(verb: string): string {
  const v = verb.toLowerCase();
  if (IRREGULAR[v]) return IRREGULAR[v];
  if (/(s|sh|ch|x|z|o)$/.test(v)) return v + 'es';
  if (/[^aeiou]y$/.test(v)) return v.slice(0, -1) + 'ies';
  return v + 's';
}
const PAST_OR_PARTICIPLE = /(ed|en)$/;

/**
 * First person (patient speech) to third person: "I've been having pain in my knee" →
 * "she has been having pain in her knee". Modal and past forms keep their verb.
 */
export function toThirdPerson(sentence: string, sex: Sex): string {
  const p = pronouns(sex);
  const subj = p.subj;
  let t = ` ${sentence} `;
  t = t.replace(/\bi'm\b/gi, `${subj} is`).replace(/\bi've\b/gi, `${subj} has`).replace(/\bi'll\b/gi, `${subj} will`).replace(/\bi'd\b/gi, `${subj} would`);
  t = t.replace(/\bi (don't|do not)\b/gi, `${subj} does not`).replace(/\bi (didn't|did not)\b/gi, `${subj} did not`);
  t = t.replace(/\bi (can't|cannot)\b/gi, `${subj} cannot`).replace(/\bi (haven't)\b/gi, `${subj} has not`).replace(/\bi (wasn't)\b/gi, `${subj} was not`);
  t = t.replace(/\bi am\b/gi, `${subj} is`).replace(/\bi was\b/gi, `${subj} was`).replace(/\bi have\b/gi, `${subj} has`);
  // "i <adverb>* <verb>" → third person singular.
  t = t.replace(/\bi((?:\s+(?:also|just|still|really|usually|never|always|only|even|actually|definitely|probably|sometimes|often|recently|finally|generally|normally|typically|mostly))*)\s+([a-z]+)\b/gi, (_m, adv: string, verb: string) => {
    const v = verb.toLowerCase();
    if (NOT_VERBS.has(v) && !ADVERBS.has(v) && !['think', 'guess', 'mean'].includes(v)) return `${subj}${adv} ${verb}`;
    if (/ly$/.test(v) && v !== 'apply' && v !== 'reply') return `${subj}${adv} ${verb}`;
    if (PAST_OR_PARTICIPLE.test(v) || ['got', 'went', 'took', 'felt', 'fell', 'came', 'saw', 'ran', 'hurt', 'put', 'made', 'heard', 'told', 'thought', 'knew', 'ate', 'slept', 'woke', 'left', 'lost', 'began', 'started', 'kept', 'bought', 'broke', 'gave', 'found', 'said'].includes(v)) return `${subj}${adv} ${verb}`;
    return `${subj}${adv} ${third(v)}`;
  });
  t = t.replace(/\bmy\b/gi, p.poss).replace(/\bmyself\b/gi, p.refl).replace(/\bme\b/gi, p.obj).replace(/\bmine\b/gi, p.poss === 'their' ? 'theirs' : p.poss === 'her' ? 'hers' : 'his');
  t = t.replace(/\bwe're\b/gi, 'they are').replace(/\bour\b/gi, 'their');
  return t.replace(/\s+/g, ' ').trim();
}

/** Clinician speech to note voice: the patient in third person, the clinician stays "I"/"we". */
export function clinicianToNote(sentence: string, sex: Sex): string {
  const p = pronouns(sex);
  let t = ` ${sentence} `;
  t = t.replace(/\byou're\b/gi, `${p.subj} is`).replace(/\byou've\b/gi, `${p.subj} has`).replace(/\byou'll\b/gi, `${p.subj} will`).replace(/\byou'd\b/gi, `${p.subj} would`);
  t = t.replace(/\byou (are|were)\b/gi, (_m, v: string) => `${p.subj} ${v.toLowerCase() === 'are' ? 'is' : 'was'}`);
  t = t.replace(/\byou (have|do|don't|didn't|can|will|should|need|want|take|get|go|feel|keep|try|continue|start|stop|come|follow|see|use|call|avoid|make|hurt|had|did|may|might)\b/gi, (_m, v: string) => {
    const lv = v.toLowerCase();
    const conj: Record<string, string> = { have: 'has', do: 'does', "don't": 'does not', "didn't": 'did not', need: 'needs', want: 'wants', take: 'takes', get: 'gets', go: 'goes', feel: 'feels', keep: 'keeps', try: 'tries', continue: 'continues', start: 'starts', stop: 'stops', come: 'comes', follow: 'follows', see: 'sees', use: 'uses', call: 'calls', avoid: 'avoids', make: 'makes', hurt: 'hurts' };
    return `${p.subj} ${conj[lv] ?? lv}`;
  });
  t = t.replace(/\byourself\b/gi, p.refl).replace(/\byour\b/gi, p.poss).replace(/\byou\b/gi, p.obj);
  t = t.replace(/\bI'm\b/g, 'I am').replace(/\bi'm\b/g, 'I am').replace(/\bwe'll\b/gi, 'we will').replace(/\bwe're\b/gi, 'we are').replace(/\bI'll\b/gi, 'I will').replace(/\bi'd\b/gi, 'I would').replace(/\blet's\b/gi, 'we will');
  t = t.replace(/\bi\b/g, 'I');
  return t.replace(/\s+/g, ' ').trim();
}

/**
 * Spoken disfluencies scribes never write: discourse fillers ("okay so", "you know", "I mean"),
 * hedges used as fillers ("like", "kind of"), tag questions ("does that sound good?") and dangling
 * conjunctions left where a turn was cut. Content words are kept, so facts survive.
 */
export function removeDisfluencies(text: string): string {
  let t = ` ${text} `;
  t = t.replace(/\b(?:um+|uh+|uhm|er|ah|hmm+|mm-hmm|uh-huh)\b[,.]?/gi, ' ');
  t = t.replace(/[,\s]+(?:okay|ok|alright|all right|right|you know|correct|yeah|is that okay|does that sound good|does that make sense|sound good|sounds good|how does that sound|is that right|right now)\s*[?.!]?\s*$/i, ' ');
  t = t.replace(/\b(?:you know|i mean|you see|let's see|let me see),?\s*/gi, ' ');
  // Twice, because one match consumes the space the next filler in a run ("okay so") starts after.
  for (let k = 0; k < 2; k++)
    t = t.replace(/(^|[,.;]\s*|\s)(?:okay|ok|alright|all right|so|well|now|yeah|oh|anyway)(?:,\s*|\s+(?=(?:okay|ok|alright|so|well|now|and|i|we|you|she|he|it|the|your|my|her|his|that|there|this)\b))/gi, '$1');
  t = t.replace(/,\s*like,?\s+/gi, ', ').replace(/\blike,\s+/gi, '').replace(/\b(?:kind of|sort of|kinda|sorta)\s+(?:like\s+)?/gi, '');
  t = t.replace(/\b(?:just|really|actually|basically|definitely|pretty much|literally|honestly)\s+/gi, '');
  t = t.replace(/\b(?:a little bit|a little|a tiny bit|a bit) of\b/gi, 'some').replace(/\b(?:a little bit|a little|a tiny bit)\b/gi, 'slightly').replace(/\bsome of some\b/gi, 'some');
  t = t.replace(/(?:\s*,)?\s+\b(?:and|but|so|or|then|and then|because|that|the|to|with|a)\s*[.,]?\s*$/i, ' ');
  t = t.replace(/\s+([,.?!])/g, '$1').replace(/,(\s*,)+/g, ',').replace(/^\s*[,.]\s*/, '').replace(/\s+/g, ' ').trim();
  return t;
}
