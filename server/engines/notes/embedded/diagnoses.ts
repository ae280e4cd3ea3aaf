/** Coded diagnoses for structured data. */
import type { Diagnosis } from '../types';
import { conditionMentions } from './analyze';
import { stripFiller, type NoteContext } from './compose';
import { avoidedDrugs, findDrugs } from './meds';
import { isDiagnosisCode, type Problem } from './plan';
import { isPatientFear } from './patient-fear';
import { isPossibleCause } from './possible-cause';
import { findPatientReason, findPresentingSymptoms } from './presenting-complaint';
import { findAssessedSitePain } from './site-pain';
import { clinicianToNote, finishSentence, toThirdPerson } from './text';

const HYPOTHETICAL =
  /\b(reasons|possible causes?|causes are|people can|people with|rule out|risk of|risk for|prevent|if (?:you|they|she|he|we|i) (?:have|has|had|get|develop)|such as|(?:people|guys|patients|folks|someone|anyone|a lot of people) (?:that|who|with)|(?:people|guys|patients|folks)\b[^.,;]{0,30}\b(?:that|who) (?:have|has|had|get)|screen(?:ing)? for|tests? for|tested for|check(?:ed)? for|evaluate for|looks? for|looking for|used (?:for|to treat|in)|(?:approved|indicated) for|would (?:have|get|develop)|(?:can|could|may|might|will) (?:cause|lead to)|can (?:get|develop))\b/;

const category = (code: string) => code.slice(0, 3);
const ACUTE = /^(I21|I22|I26|I63|I61|J18|J20|J01|J02|J06|N39|S|T)/;
// A condition of the past said with when it was is history, not this visit's problem: an episodic one (an infection, a
// stone, a clot, an injury) with a past verb before it ("you had a kidney stone back in 2015", "cellulitis of your leg last
// year"), any one had in a pregnancy ("you were anemic during your pregnancy"), a cancer the patient had ("you had breast
// cancer ten years ago"), and any one removed ("you had colon polyps removed five years ago"). A chronic one said with when
// it was found ("a colonoscopy three years ago showed you had some diverticulosis", "diagnosed with diabetes in 2015") is
// still there; so is any the sentence says is here now ("still", "again", "it's back", "now on tamoxifen").
const PAST_TIME =
  /\b(?:(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|twenty|a few|several|many|some|a couple of) (?:years?|months?) (?:ago|back)|(?:years|decades|ages) (?:ago|back)|(?:a )?long (?:time )?ago|a while ago|back in|in (?:19|20)\d\d|in (?:your |his |her )?childhood|last (?:year|winter|summer|spring|fall|autumn)|as a (?:child|kid|teenager|teen|baby)|when (?:you|he|she) (?:were|was) (?:a |an )?(?:child|kid|teenager|teen|baby|younger|little|young)|in (?:college|high school|grade school|your (?:twenties|thirties|teens)))\b/;
const PREGNANCY_PAST = /\b(?:during|with|in) (?:your|her) (?:last |first |previous |second |earlier )?pregnanc(?:y|ies)\b/;
// With a seizure, a faint or a fever had once, and diverticulitis (not diverticulosis, K57.x0).
const EPISODIC = /^(?:I2[1-2]|I26|I6[13]|G45|I8[02]|J0|J1[0-8]|J2[0-2]|N1[0-2]|N2[0-3]|N3[09]|L0[23]|K35|K57\.\d[23]|K8[0-1]|K85|B0[0-2]|B27|A0|H6[56]|R5[056]|R21|L30\.9|O|S|T)/;
// "Back in 2010 you had a bout of diverticulitis": one episode of it, whatever the condition.
const BOUT_OF = /\b(?:a|one|an|two|three|several) (?:bouts?|episodes?|attacks?|cases?|spells?) of\s+(?:(?:a|an|the|bad|mild|severe)\s+)?$/;
// "You had depression after your divorce but that was a long time ago."
const LONG_AGO_AFTER = /^(?:[\w']+\s+){0,6}?(?:but|and)\s+(?:that|it|this)\s+(?:was|were)\s+(?:(?:a )?long (?:time )?ago|(?:many )?years ago|ages ago|decades ago|in the past|a while ago|back in|in (?:19|20)\d\d)\b/;
// "You outgrew your eczema."
const OUTGROWN = /\b(?:outgrew|outgrown|grew out of)\s+(?:(?:your|the|her|his|their|my)\s+)?$/;
// "Your thyroid cancer was treated in 2005 and you have been cancer free."
const CANCER_TREATED = /^(?:[\w']+\s+){0,2}?(?:was|were|got|had been) (?:(?:successfully|fully|completely)\s+)?(?:treated|cured)\b|\bcancer[- ]free\b|\bin remission\b/;
// "You had carpal tunnel release on the left in 2018", "your cataract surgery went well last year": an operation that took
// the condition away, said of the past.
const OPERATION_AFTER = /^(?:release|surgery|surgeries|repair|replacement|removal|extraction|ablation|operation|procedure|resection|excision)\b/;
const WENT_WELL = /\b(?:went|healed|recovered) (?:well|fine|great|okay|ok|nicely)\b/;
const PAST_VERB = /\b(?:had|were|was|got|caught|came down with|ended up with|developed)\b/;
const HAD_RIGHT_BEFORE = /(?:^|\s)(?<!\b(?:have|has|you've|i've|we've|they've|would|could|might|may|should)\s)had(?:\s+(?!(?:have|has|you|i|told|diagnosed)\b)[\w'-]+){0,3}$/;
const REMOVED_AFTER = /^(?:[\w',]+\s+){0,6}?(?:had|was|were|got)\s+(?:[\w']+\s+){0,2}?(?:removed|taken out|cut out|excised|resected)\b/;
const REMOVED_RIGHT_AFTER = /^(?:removed|taken out|cut out|excised|resected)\b/;
// "You had a thyroidectomy for thyroid cancer", "you had your gallbladder removed for gallstones", "you had surgery for a
// herniated disc ten years ago": what a past operation took out or treated (not "you had a stent for coronary artery disease").
const OPERATED_FOR = /\b(?:had|underwent|got)\s+(?:(?:a|an|your|the|her|his)\s+)?((?:[\w'-]+\s+){1,3}?)for\s+(?:(?:a|an|the)\s+)?$/;
const REMOVAL = /(?:ectomy|removed|removal|taken out|out)\s*$/;
const OPERATION = /(?:surgery|operation|repair|scope|ablation|resection|excision|procedure|ectomy|otomy|removed|removal|taken out|out)\s*$/;
// "You used to have asthma as a child": had, and no longer.
const USED_TO = /\bused to (?:have|get|be)(?:\s+(?:a|an|the|some|bad|really|terrible))?$/;
// ("Still makes sense" says nothing of the condition.)
const HERE_NOW = /\b(?:still(?! (?:makes? sense|recommend|want|need|should|worth|a good idea))|again|currently|today|this (?:week|time)|now (?:on|taking|getting|receiving|in|doing|having)|(?:come|came|is|it's|are|they're) back|recurr\w*|another|anymore)\b/;
// "You were anemic last year, but your blood count is normal now": had, and a result since says it is gone (not one kept
// normal by a drug: "your pressure was high last year, but it's normal on lisinopril").
const NORMAL_NOW_AFTER = /^(?:[\w']+\s+){0,4}?but\s+(?:it's|that's|they're|(?:(?:your|the|it|that|this|they)\s+)?(?:[\w'-]+\s+){0,3}?(?:is|are|has been|have been|came back))\s+(?:(?:now|completely|totally|all)\s+)?(?:normal|fine|back to normal)\b/;
function pastHistory(tokens: string[], m: { code: string; start: number; end: number }): boolean {
  const sentence = tokens.join(' ');
  if (HERE_NOW.test(sentence)) return false;
  const before = tokens.slice(Math.max(0, m.start - 8), m.start).join(' ');
  const after = tokens.slice(m.end, m.end + 10).join(' ');
  const past = PAST_TIME.test(sentence);
  if (REMOVED_AFTER.test(after) || (past && REMOVED_RIGHT_AFTER.test(after)) || USED_TO.test(before) || OUTGROWN.test(`${before} `)) return true;
  if (OPERATION_AFTER.test(after) && (past || PAST_VERB.test(before) || WENT_WELL.test(after))) return true;
  if (PAST_VERB.test(before) && (LONG_AGO_AFTER.test(after) || (past && BOUT_OF.test(`${before} `)))) return true;
  if (past && /^C/.test(m.code) && CANCER_TREATED.test(after)) return true;
  if (pastSideEffect(tokens, m, past)) return true;
  const operated = OPERATED_FOR.exec(`${before} `);
  if (operated && (REMOVAL.test(operated[1]) || (past && OPERATION.test(operated[1])))) return true;
  if (PREGNANCY_PAST.test(sentence) && PAST_VERB.test(before)) return true;
  if (past && PAST_VERB.test(before) && NORMAL_NOW_AFTER.test(after) && !findDrugs(sentence).length) return true;
  return past && ((EPISODIC.test(m.code) && PAST_VERB.test(before)) || (/^C/.test(m.code) && HAD_RIGHT_BEFORE.test(before)));
}
// A drug's side effect that made it stop or change: "you stopped the lisinopril because of a cough", "the statin gave you
// muscle aches last year, so we switched", "you got dizzy on the higher dose, so we went back down".
const STOPPED_FOR_BEFORE = /\b(?:stopped|quit|came off|switched|discontinued|took you off)\b(?:\s+[\w'-]+){0,4}?\s+(?:because of|due to|after)\s+(?:(?:a|an|the|some|bad|severe|terrible)\s+)?(?:[\w'-]+\s+)?$/;
const GAVE_YOU_BEFORE = /\b(?:gave|caused|made)\s+(?:you|him|her)\s+(?:(?:a|an|the|some|bad|severe|terrible)\s+)?(?:[\w'-]+\s+)?$/;
const GOT_BEFORE = /\b(?:you|he|she) (?:got|were|was|felt|became)\s+(?:(?:a little|a bit|really|very|so)\s+)?$/;
const SO_CHANGED_AFTER = /^(?:[\w',]+\s+){0,8}?so (?:you|we|i|he|she|they) (?:stopped|quit|switched|changed|went back|lowered|cut|came off|took|moved|had to stop)\b/;
function pastSideEffect(tokens: string[], m: { start: number; end: number }, past: boolean): boolean {
  const before = `${tokens.slice(Math.max(0, m.start - 10), m.start).join(' ')} `;
  const after = tokens.slice(m.end, m.end + 12).join(' ');
  return STOPPED_FOR_BEFORE.test(before) || ((GAVE_YOU_BEFORE.test(before) || GOT_BEFORE.test(before)) && (SO_CHANGED_AFTER.test(after) || (past && GAVE_YOU_BEFORE.test(before))));
}
// "You have had pneumonia for a week now": had until now, not in the past.
const HAD_UNTIL_NOW = /^(?:for (?:a|the past|the last|about|over|almost|nearly|\d+|one|two|three|four|five|six|several|a few|a couple of) (?:\w+ )?(?:days?|weeks?)|since (?:last|yesterday|the weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/;
const pastAcute = (tokens: string[], m: { code: string; start: number; end: number }) =>
  (ACUTE.test(m.code) && /\b(had|history of|years? ago|back in|prior|previous)\b/.test(tokens.slice(Math.max(0, m.start - 6), m.end + 4).join(' ')) && !HAD_UNTIL_NOW.test(tokens.slice(m.end, m.end + 6).join(' '))) ||
  pastHistory(tokens, m);

type Said = { sentence: { text: string; tokens?: string[] }; surface: string; start?: number };
/** The sentence's words before the mention, lower case; the whole sentence (found: false) when the surface is not in it. */
function saidBefore(m: Said): { text: string; found: boolean } {
  const lower = m.sentence.text.toLowerCase();
  // The mention's own occurrence when the sentence says it twice ("people get migraines, and yours are migraines too").
  const earlier = m.start && m.sentence.tokens ? m.sentence.tokens.slice(0, m.start).join(' ').split(m.surface).length - 1 : 0;
  let at = lower.indexOf(m.surface);
  for (let k = 0; k < earlier && at >= 0; k++) at = lower.indexOf(m.surface, at + m.surface.length);
  return { text: at >= 0 ? lower.slice(0, at) : lower, found: at >= 0 };
}

const feared = (m: Said) => saidBefore(m).found && isPatientFear(saidBefore(m).text.slice(-120));
// "Sometimes people get heartburn with this medicine": what people in general get, said right before the condition.
const PEOPLE_GET = /\b(?:people|patients|folks) (?:(?:often|usually|commonly|sometimes|can|may|might|will)\s+)?(?:get|develop|experience|end up with)\s+(?:[\w'-]+\s+){0,2}$/;
/** Said of people in general, of a drug's use or of what a test looks for ("a PSA looks for prostate cancer"), or feared. */
const hypothetical = (m: Said) => HYPOTHETICAL.test(saidBefore(m).text.slice(-120)) || PEOPLE_GET.test(saidBefore(m).text) || feared(m);

// A condition naming a topic ("what we learn in diabetes studies") is not the patient's.
const namesTopic = (m: { sentence: { tokens: string[] }; end: number }) => /^(?:study|studies|trial|trials|research)$/.test(m.sentence.tokens[m.end] ?? '');

// What the patient ticked on a review-of-systems or intake form is reported, as the history list is, not assessed.
const onForm = (text: string) => /\b(review (?:of )?systems?|systems? form|intake form|questionnaire|you (?:indicated|marked|checked)|did indicate)\b/i.test(text);

// What would happen to someone ("then they would have a heart attack at 50") is not what the patient has.
const SUPPOSED = /\b(?:would|could) (?:have|get|develop)\s+(?:\w+\s+){0,2}$/;
function supposed(m: Said): boolean {
  const before = saidBefore(m);
  return before.found && SUPPOSED.test(before.text) && !/\b(?:you|he|she)\s+(?:\w+\s+){0,2}$/.test(before.text.replace(SUPPOSED, ''));
}

// A condition named as part of the medical history ("for your medical history, it's high cholesterol") is history even when
// said in the assessment and plan: coded only when a drug said with it manages it or the plan names it otherwise. On the
// tune fold, the reference notes assess about 1 in 10 conditions named only in the history list.
const HISTORY_FRAME = /\b(?:medical history|past history|history (?:of|significant for|includes?|is)|pmh)\b(?:(?!\b(?:you have|you do have|diagnosed)\b)[^.;]){0,60}$/;
const historyFramed = (m: Said) => HISTORY_FRAME.test(saidBefore(m).text);
// A drug said to be avoided ("with your history of stomach ulcers, avoid ibuprofen") is kept from the history, not given for it.
const drugsGiven = (text: string) => findDrugs(text).filter((d) => !avoidedDrugs(text).some((a) => a.ingredient === d.ingredient));

// Before the assessment and plan, a condition is the clinician's diagnosis only when told to the patient as theirs or read
// off a result ("you do have a vitamin d deficiency", "consistent with", "it does show …"); one named in passing ("with
// your knee pain", "presents with back pain", "signs of what we call …") is history: on the tune fold, the reference notes
// assess 10 of 51 conditions the clinician names only before the plan.
const DIAGNOSTIC_CUE = /\b(?:you (?:do |also |still )?have(?! had\b)|you've (?:also )?got|what you have is|consistent with|diagnosed with|diagnosis (?:is|of)|(?:it|this|that|which) (?:\w+ ){0,2}(?:shows?|showed|revealed)|(?:x-rays?|mri|ct|echo\w*|ultrasound|scan|study|test|results?|labs?|biopsy) (?:also )?(?:shows?|showed|revealed))\b/;
// The words between a symptom and the diagnosis that explains it: "… I think it was …", "… is from …", "… you have been
// getting are …", "the rash looks like shingles" (the diagnosis right after the verb, so "your headache is better and your
// hypertension" is not one).
const EXPLAINED_BY = /\b(i think (?:it|this|that) (?:was|is)|this is|(?:looks|sounds|seems) like|it was|it is|due to|from|consistent with|caused by|secondary to)\b/;
const NAMED_AS = /^(?:[\w']+\s+){0,5}?(?:is|are|was|were)\s+(?:(?:a|an|the|likely|probably|most|all|just|your)\s+){0,3}$/;
const explainedBy = (between: string) => EXPLAINED_BY.test(between) || NAMED_AS.test(`${between} `);
// Symptoms, and the pain and itch codes outside chapter R that name a symptom at a site.
const SYMPTOM = /^(?:R|M25\.[56]|M54|M79\.6|G89|L29)/;
const diagnosticCue = (tokens: string[], start: number) => DIAGNOSTIC_CUE.test(tokens.slice(Math.max(0, start - 8), start).join(' '));

// An injury the clinician reads off the imaging ("what I see is a proximal humerus fracture") is this visit's diagnosis.
const readOff = (s: { tokens: string[] }, m: { start: number }) => /\b(?:what i see is|i can see|it shows|this shows|x-rays? shows?|x-rays? showed)\b/.test(s.tokens.slice(Math.max(0, m.start - 7), m.start).join(' '));

// What a test is for ("a PSA that looks for prostate cancer", "screen for diabetes") is not a problem the visit found.
const SOUGHT = /\b(?:looks? for|looking for|screen(?:ing)? for|tests? for|check(?:ing)? for|rule out|to see if)\s+(?:\w+\s+){0,2}$/;
function soughtBy(m: Said): boolean {
  const before = saidBefore(m);
  return before.found && SOUGHT.test(before.text);
}

// A symptom named only as what a drug is taken for when needed ("albuterol for shortness of breath as needed", "as
// needed for pain") is the drug's reason, not a problem the plan assesses.
const PRN = /\b(?:as needed|when needed|if needed|as required|prn|p\.r\.n)\b/;
// The reason may be one of a list: "as needed for wheezing or shortness of breath", "for cough or wheezing as needed".
const PRN_DET = '(?:(?:your|the|any|some|her|his|their)\\s+)?';
const PRN_LIST = '(?:\\w+\\s+){0,4}(?:or|and)\\s+';
const PRN_FOR_BEFORE = new RegExp(`${PRN.source}\\s+for\\s+${PRN_DET}(?:${PRN_LIST}${PRN_DET})?$`);
const FOR_BEFORE = new RegExp(`\\bfor\\s+${PRN_DET}(?:${PRN_LIST}${PRN_DET})?$`);
const PRN_AFTER = new RegExp(`^(?:(?:or|and)\\s+(?:\\w+\\s+){1,4})?(?:\\w+\\s+)?${PRN.source}`);
function prnReason(m: { sentence: { tokens: string[] }; start: number; end: number }): boolean {
  const t = m.sentence.tokens;
  const before = `${t.slice(Math.max(0, m.start - 10), m.start).join(' ')} `;
  const after = t.slice(m.end, m.end + 8).join(' ');
  return PRN_FOR_BEFORE.test(before) || (FOR_BEFORE.test(before) && PRN_AFTER.test(after));
}

// The body part a joint or limb pain code names, and the words of a diagnosis at that part (its ICD-10-CM description).
const PAIN_SITES: Array<[RegExp, RegExp]> = [
  [/\bknee\b/, /\b(knee|patell\w*|menisc\w*|cruciate|collateral)\b/],
  [/\bshoulder\b/, /\b(shoulder|rotator|humerus|clavicle|acromi\w*)\b/],
  [/\bhip\b/, /\b(hip|femur|trochanter\w*)\b/],
  [/\b(ankle|foot)\b/, /\b(ankle|foot|toe|metatars\w*|hallux|tarsal|calcane\w*|fibula|plantar|achilles)\b/],
  [/\belbow\b/, /\b(elbow|epicondyl\w*|olecranon)\b/],
  [/\b(wrist|hand|fingers?)\b/, /\b(wrist|hand|fingers?|carpal|radius|metacarp\w*|upper limbs?)\b/],
  [/\b(leg|lower leg)\b/, /\b(leg|lower limbs?|tibia|fibula|knee|ankle)\b/],
  [/\barm\b/, /\b(arm|upper limbs?|humerus|radius|ulna|elbow)\b/],
];

export function diagnoses(ctx: NoteContext, problems: Problem[]): Diagnosis[] {
  const out: Diagnosis[] = [];
  const seen = new Set<string>();
  // "Hyper-" and "hypothyroidism" differ by a syllable easily misspoken or misheard; thyroid hormone replacement
  // (levothyroxine, liothyronine) treats only the underactive thyroid, so with it and no antithyroid drug it is E03.
  const drugs = new Set(ctx.analysis.sentences.flatMap((s) => findDrugs(s.text).map((d) => d.ingredient)));
  const replacesThyroid = (drugs.has('levothyroxine') || drugs.has('liothyronine')) && !drugs.has('methimazole') && !drugs.has('propylthiouracil');
  const add = (said: string, note: string) => {
    const code = /^E05/.test(said) && replacesThyroid ? 'E03.9' : said;
    const icd = ctx.codes.icd10(code);
    if (!icd || seen.has(icd.code)) return;
    seen.add(icd.code);
    const codes: Diagnosis['codes'] = [{ code: icd.code, description: icd.description, type: 'ICD10' }];
    const hcc = ctx.codes.hcc(icd.code, ctx.model);
    if (hcc) codes.push({ code: hcc.code, description: hcc.label, type: 'HCC' });
    const d: Diagnosis = { codes, diagnosis_note: note };
    const desc = icd.description.toLowerCase();
    if (/\bbilateral\b/.test(desc)) d.laterality_indicator = 'BILATERAL';
    else if (/\bright\b/.test(desc)) d.laterality_indicator = 'RIGHT';
    else if (/\bleft\b/.test(desc)) d.laterality_indicator = 'LEFT';
    out.push(d);
  };
  for (const p of problems) {
    // A complaint named only as said (no lexicon condition) has no code to report.
    if (!p.code || (p.mentions.length && p.mentions.every((m) => pastAcute(m.sentence.tokens, m) || soughtBy(m) || feared(m) || isPossibleCause(m.sentence.tokens, m.start, m.end) || onForm(m.sentence.text) || namesTopic(m) || supposed(m) || (historyFramed(m) && !drugsGiven(m.sentence.text).length)))) continue;
    const note = [...p.reasoning, ...p.treatment, ...p.testing].slice(0, 2).map((x) => x.text).join(' ') || `${p.name}.`;
    add(p.code, note);
  }
  // A symptom code is dropped when a definitive diagnosis of the same problem is already coded.
  const { analysis } = ctx;
  for (const s of analysis.sentences) {
    if (s.role !== 'CLINICIAN' || s.question) continue;
    for (const m of conditionMentions(s)) {
      // Injuries (S codes) count only when the clinician names them in the assessment, not when asking.
      // A symptom the clinician names in the assessment and plan is assessed (issue 29), as scribes list it.
      const symptomOk = /^R/.test(m.code) && s.i >= analysis.planStart;
      // A contusion (T14.8, no site in the lexicon) the clinician names in the assessment is an injury, as S codes are.
      const contusion = /^T14\.8/.test(m.code) && s.i >= analysis.planStart;
      if (m.negated || m.family || (!contusion && ((!/^[A-QS-Y]/.test(m.code) && !symptomOk) || !isDiagnosisCode(m.code) || /^(Z|T|W)/.test(m.code))) || (/^S/.test(m.code) && s.i < analysis.planStart && !readOff(s, m))) continue;
      // Causes talked through ("many reasons people can have an enlarged liver: alcohol, fatty liver") are not the patient's.
      if (hypothetical(m) || isPossibleCause(m.sentence.tokens, m.start, m.end)) continue;
      if (namesTopic(m)) continue;
      // Unless the plan names the symptom elsewhere, not as a drug's as-needed reason.
      if (SYMPTOM.test(m.code) && prnReason(m) && !analysis.sentences.some((t) => t.i >= analysis.planStart && t.role === 'CLINICIAN' && !t.question && conditionMentions(t).some((x) => x.code === m.code && !x.negated && !x.family && !prnReason(x) && !hypothetical(x)))) continue;
      // A past acute event ("he had a heart attack in 2008") is history, not this visit's diagnosis (I25.2, not I21).
      if (pastAcute(s.tokens, m)) continue;
      // A condition read out of the history list is coded when the assessment and plan comes back to it (or a drug for
      // it manages it: addManagedProblems); "you have hypertension" said to the patient is this visit's.
      const window = s.tokens.slice(Math.max(0, m.start - 6), m.start).join(' ');
      // "hepatitis c is a viral infection that affects your liver": the second condition explains the first, it is not another.
      const before = conditionMentions(s).filter((x) => x.end <= m.start).at(-1);
      if (before && /^(?:is|are) (?:a|an|the|one)\b/.test(s.tokens.slice(before.end, m.start).join(' ')) && m.start - before.end <= 4) continue;
      // The plan comes back to it when the clinician names it there, as a statement, outside a form read out and not as history.
      const later = analysis.sentences.some(
        (t) => t.i >= analysis.planStart && t.role === 'CLINICIAN' && !t.question && !onForm(t.text) && conditionMentions(t).some((x) => !x.negated && !x.family && !historyFramed(x) && category(x.code) === category(m.code)),
      );
      // A form read out, or a history named in the plan, counts only when the plan comes back to it or a drug said with it manages it.
      const inPlan = s.i >= analysis.planStart && ((!onForm(s.text) && !(historyFramed(m) && !drugsGiven(s.text).length)) || later);
      // "You have a history of …" is history too: told as theirs, but not assessed.
      const fromHistory = onForm(s.text) || historyFramed(m) || /\bhistory\b/.test(window);
      // A symptom told back before the plan ("you do have some knee pain") is the complaint, assessed only if the plan names it.
      const stated = s.i < analysis.planStart && !fromHistory && !SYMPTOM.test(m.code) && diagnosticCue(s.tokens, m.start);
      if (inPlan || (/^S/.test(m.code) && readOff(s, m)) || stated) add(m.code, finishSentence(clinicianToNote(stripFiller(s.text), analysis.sex)));
    }
  }
  // The reason for the visit the clinician dictates is a problem of it, unless a diagnosis below explains it.
  for (const p of findPresentingSymptoms(analysis.sentences)) add(p.code, finishSentence(clinicianToNote(stripFiller(p.sentence.text), analysis.sex)));
  // And the condition of their own the patient says they came for, in the note's third person.
  for (const p of findPatientReason(analysis.sentences)) add(p.code, finishSentence(toThirdPerson(stripFiller(p.sentence.text), analysis.sex)));
  // So is the pain of a part the plan takes up with only a possible diagnosis (site-pain.ts).
  // (Its evidence is the sentence that takes the part up when no sentence names the pain.)
  const takenUp = new Map<string, string>();
  const coded = out.map((d) => d.codes[0]);
  for (const p of findAssessedSitePain(analysis.sentences, analysis.planStart, coded)) {
    add(p.code, finishSentence(clinicianToNote(stripFiller(p.sentence.text), analysis.sex)));
    takenUp.set(ctx.codes.icd10(p.code)?.code ?? p.code, p.sentence.tid);
  }
  // Joint or limb pain is the symptom of a musculoskeletal diagnosis or injury coded beside it, not a problem of its own.
  // Only a diagnosis of the same part explains the pain: knee osteoarthritis explains knee pain, arthritis of no stated
  // site does not explain foot pain, and carpal tunnel syndrome (a nerve, G56) explains wrist pain.
  const definitive = out.filter((d) => /^(M(?!25\.5|79\.6|54\.5)|S|G5[4-9])/.test(d.codes[0].code));
  for (let k = out.length - 1; k >= 0; k--) {
    const pain = out[k].codes[0];
    if (!/^(M25\.5|M79\.6)/.test(pain.code)) continue;
    const part = PAIN_SITES.find(([re]) => re.test(pain.description));
    // Pain in no stated joint is explained by an arthropathy anywhere.
    const explained = part ? definitive.some((d) => part[1].test(d.codes[0].description)) : definitive.some((d) => /^M(0|1[0-9]|2[0-4])/.test(d.codes[0].code));
    if (explained) out.splice(k, 1);
  }
  // A symptom the clinician explains by a diagnosis in one sentence ("the shortness of breath, I think it was an exacerbation
  // of your heart failure", "the headaches you have been getting are migraines", "the rash is contact dermatitis") is that
  // diagnosis's sign, not a problem of its own. Joint pain is left to the rule above: on the tune fold scribes list "joint
  // pain" beside the arthritis the clinician explains it by.
  for (let k = out.length - 1; k >= 0; k--) {
    const code = out[k].codes[0].code;
    // L30.9 (dermatitis, unspecified) is what the lexicon codes a rash said as such.
    if (!/^R/.test(code) && code !== 'L30.9') continue;
    const explained = analysis.sentences.some((s) => {
      if (s.role !== 'CLINICIAN') return false;
      const ms = conditionMentions(s).filter((x) => !x.negated && !x.family);
      const sym = ms.find((x) => (ctx.codes.icd10(x.code)?.code ?? x.code) === code);
      return !!sym && ms.some((x) => x.start > sym.end && !/^[RZ]/.test(x.code) && out.some((d) => category(d.codes[0].code) === category(x.code)) && explainedBy(s.tokens.slice(sym.end, x.start).join(' ')));
    });
    if (explained) out.splice(k, 1);
  }
  for (const d of out) {
    const found = diagnosisEvidence(ctx, d.codes[0].code);
    const tid = takenUp.get(d.codes[0].code);
    d.source_transcripts = found.length || !tid ? found : [tid];
  }
  return out;
}

/**
 * The entries that name or imply a diagnosis (issue 27): every sentence whose condition mention codes to
 * it, the patient's own or the clinician's, never negated or a relative's; else those of its category.
 * A lab-order sentence that does not name the problem is not its evidence.
 */
export function diagnosisEvidence(ctx: NoteContext, code: string): string[] {
  const exact: string[] = [];
  const category: string[] = [];
  for (const s of ctx.analysis.sentences) {
    // "Your blood pressure is also high" implies hypertension as much as naming it does.
    for (const m of conditionMentions(s, { measured: true })) {
      if (m.negated || m.family) continue;
      const coded = ctx.codes.icd10(m.code)?.code ?? m.code;
      if (coded === code) exact.push(s.tid);
      else if (coded.slice(0, 3) === code.slice(0, 3)) category.push(s.tid);
    }
  }
  return [...new Set(exact.length ? exact : category)];
}
