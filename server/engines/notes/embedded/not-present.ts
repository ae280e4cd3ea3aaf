/**
 * Condition mentions that say the condition is not present though no negation says so: a risk, a possibility set aside,
 * a condition taught about, resolved, not found by its test, named for its vaccine, a consequence that may come, or one the
 * clinician disagrees with.
 */
import { conditionMatcher, drugMatcher, tokenize } from './lexicon';
import { OWNER, undecided } from './undecided';

// A condition named as a risk ("lower your risk of a stroke", "the chance of a blood clot", "to prevent a heart attack") is one
// the patient does not have: it is as absent as a denied one, so no problem, code or evidence is made of it.
const RISK_OF =
  /\b(?:risks? (?:of|for)|risk factors? (?:for|of)|chances? of|odds of|likelihood of|low (?:suspicion|concern|likelihood|probability) (?:for|of)|prevent(?:s|ing)?|protect(?:s|ing)?(?: (?:you|him|her|them|your \w+))? (?:from|against)|keep (?:you|him|her|them) (?:from|out of)|in case of|in the event of|avoid(?:s|ing)?|exclude|excluding|(?:head|ward|stave|fend) off|before (?:it|this|that|you|he|she|they) (?:becomes?|turns? into|develops? into|progress(?:es)? to|gets? to be)|vaccinated against|immuni[sz]ed against|immune to|in case (?:you|he|she|they) (?:get|gets|develop|develops|have|has)|should (?:you|he|she|they) (?:get|develop|have|start having)|no longer (?:have|has|had))\s+(?:(?:a|an|the|any|another|future|further|developing|having|getting|becoming|full-blown|full blown)\s+){0,2}$/;
// A possibility the clinician names ("could be", "maybe", "either X or Y") and then sets aside for another diagnosis in the
// same sentence ("it could be gout, but I think it's osteoarthritis") is not a diagnosis; the one the "but" leads to is.
const MAYBE_BEFORE = /\b(?:(?:could|might|may) (?:be|have|represent)|possibly|possible|maybe|perhaps|either|wonder(?:ed)? (?:if|whether|about))\b/;
const SET_ASIDE_AFTER = /^(?:[\w'-]+\s+){0,4}?(?:but|however)\s+(?:(?:i|we)\s+(?:(?:really|actually|still|honestly)\s+)?(?:think|believe|suspect)\s+(?:that\s+)?(?:it's|it is|this is|you have|it)?|(?:it's|it is|this is|this looks like|it looks like)\s+(?:more\s+)?(?:likely\s+)?|more likely|most likely|(?:the|your)\s+(?:[\w'-]+\s+){0,2}?(?:showed|shows|confirmed|revealed|came back as))\b/;
export function setAside(tokens: string[], start: number, end: number): boolean {
  if (!MAYBE_BEFORE.test(tokens.slice(Math.max(0, start - 8), start).join(' '))) return false;
  const after = tokens.slice(end, end + 14).join(' ');
  if (!SET_ASIDE_AFTER.test(after)) return false;
  // The sentence must go on to name another condition as what it is ("either X or Y, but most likely X" keeps X).
  const rest = tokenize(after.replace(SET_ASIDE_AFTER, ''));
  const self = conditionMatcher.match(tokens.slice(start, end))[0]?.id;
  return conditionMatcher.match(rest).some((m) => m.id !== self);
}

// "Symptoms of a heart attack include chest pain and shortness of breath": teaching what a condition looks like.
const TEACHING = /\b(?:symptoms|signs|warning signs) of\b.*\b(?:include|includes|are|can be)\b/;
// "Your pneumonia has resolved", "the rash went away", "your covid test was negative": named to say it is gone or was not found.
// "The nausea stopped after a day", "the fever broke", "your rash is all better", "the sore throat got better on its own",
// "your constipation is no longer a problem", "treated, and it has not been a problem", "your kidney stone has passed", "the
// ear infection is over", "it has run its course", "but that's fixed now": gone too.
const GONE_AFTER = /^(?:(?:from|of|that|which|you had)\s+)?(?:[\w']+\s+){0,4}?(?:has|have|had|is|was|were|are|'s|has been|have been)\s+(?:(?:now|completely|fully|all|totally|entirely|pretty much|basically|long)\s+)?(?:resolved|cleared|cleared up|gone away|gone|healed|healed up|cured|stopped|all better|completely better|passed|worn off|corrected|run (?:its|their) course)\b|^(?:[\w']+\s+){0,2}?(?:is|are|'s|was)\s+(?:(?:now|all|finally)\s+)?(?:over|behind you)(?!\s+(?:the|your|my|his|her|a|an|there|here|it|this|that|\d+)\b)|^(?:[\w']+\s+){0,6}?(?:has not|hasn't|have not|haven't|never|did not|didn't) (?:come|came) back\b|^(?:[\w']+\s+){0,5}?(?:went away|cleared up|resolved|healed up|stopped(?! (?:you|him|her|me|them|us)\b)|settled down|disappeared|broke|got better on (?:its|their) own|got all better)\b|^(?:[\w']+\s+){0,5}?(?:is|are|'s|has|have)\s+(?:no longer|not been|not)\s+(?:a |an )?(?:problem|issue)\b|^(?:[\w']+\s+){0,4}?(?:has not|hasn't|have not|haven't) (?:bothered|troubled) (?:you|him|her|them)\b|^(?:[\w']+\s+){0,6}?(?:but|and) (?:(?:you|he|she|your body)\s+)?cleared (?:it|the virus|the infection|that)\b|^(?:[\w']+\s+){0,6}?(?:and|but) (?:it|that|they) (?:has|have|is|are|'s) (?:no longer|not been|not) (?:a |an )?(?:problem|issue)\b|^(?:screening|screen|test|testing|swab|pcr|panel)\s+(?:was|is|were|came back)\s+(?:negative|normal)\b|^(?:[\w']+\s+){0,6}?(?:but|and)\s+(?:that|it|this|they)(?:'s|'re| is| are| has been| have been)\s+(?:(?:all|now|since)\s+)?(?:fixed|resolved|gone|taken care of)\b/;

// "your covid-19 shot", "the shingles vaccine", "you have completed your covid-19 [series]": the vaccine, not the disease.
const VACCINE_AFTER = /^(?:shots?|vaccines?|vaccinations?|boosters?|series|immuni[sz]ations?)\b/;
// "the lung cancer screening program", "cancer free", "the covid unit", "the flu is going around": the screening for it, its
// absence, a ward named for it, or it in the community.
// So is a place, a programme, a document or a group named for it ("the heart failure clinic", "a diabetes prevention program",
// "a migraine diary", "a stroke support group", "the asthma and allergy foundation", "my residency on the stroke service").
const NAMED_FOR_IT_AFTER =
  /^(?:(?:and|&) [\w']+\s+)?(?:clinics?|centers?|centres?|services?|programs?|programmes?|association|foundation|society|class|classes|support group|groups?|diary|diaries|log|journal|questionnaires?|survey|walk|awareness|month|research|prevention|institute|hospital)\b/;
// And a person who treats it ("the diabetes educator", "the cancer doctor down the hall"), a medicine, a diet, a plan or
// precautions for it ("a new migraine medicine", "a diabetic diet", "a cough drop", "an asthma action plan", "seizure
// precautions"), unless it is the patient's own ("your heart failure doctor", "your asthma inhaler").
const TREATS_IT_AFTER =
  /^(?:educators?|specialists?|doctors?|nurses?|surgeons?|team|teams|medicines?|medications?|meds|drugs?|pills?|drops?|creams?|ointments?|lotions?|shampoos?|diet|action plan|precautions)\b/;

// Words of talk, not of the body: "that's a pain in the neck" (read as "a neck pain"), "it's been a headache today with the
// computers", "such a headache", "it makes my blood boil".
const IDIOM_BEFORE = /\b(?:(?:that's|it's|this is|that is|it is|what|such|is|was|been)\s+a\s+(?:real\s+|total\s+|big\s+|huge\s+|major\s+)?|(?:such|what) a\s+(?:\w+\s+)?)$/;
const idiom = (tokens: string[], start: number, end: number) => {
  const said = tokens.slice(start, end).join(' ');
  const before = `${tokens.slice(Math.max(0, start - 4), start).join(' ')} `;
  return (said === 'neck pain' && IDIOM_BEFORE.test(before)) || (said === 'headache' && /\b(?:been|such|what) a\s+(?:(?:real|total|big|huge|major)\s+)?$|\ba (?:real|total|big|huge|major)\s+$/.test(before)) || (said === 'boil' && tokens[start - 1] === 'blood');
};
// A product named for what it treats: "Tylenol Cold and Flu", "Excedrin Migraine" (a drug named right before it, not a
// clause said of the condition after a drug: "continue the lisinopril, hypertension is controlled").
const productName = (tokens: string[], start: number) => {
  const at = /^(?:and|&)$/.test(tokens[start - 1] ?? '') ? start - 2 : start;
  return drugMatcher.match(tokens.slice(Math.max(0, at - 4), at)).some((d) => d.end === Math.min(at, 4));
};
const CLAUSE_AFTER = /^(?:is|are|was|were|has|have|seems?|looks?|remains?|stays?|continues?|itself|well|stable|controlled|under|not|still|getting|doing)\b/;
// What a drug is kept for in case ("Tums for heartburn if it happens", "good to have on hand for traveler's diarrhea").
const IN_CASE_AFTER = /^(?:(?:if|when|should|whenever) (?:it|that|this|they|you)(?: ever)? (?:happens?|comes? back|flares?|starts?|occurs?|returns?|needs? it|gets? (?:it|bad|worse))|just in case|in case)\b/;
const FOR_BEFORE = /\bfor\s+(?:(?:a|an|the|any|some)\s+)?(?:[\w'-]+\s+)?$/;
// Got over: "you got over the pneumonia", "you've recovered from covid", "you passed the kidney stone last week".
const GOT_OVER_BEFORE =
  /\b(?:you|you've|you have|he|she|he's|she's)\s+(?:(?:finally|fully|completely|now|already|since)\s+)?(?:got over|gotten over|recovered from|passed|fought off|shaken off|shook off)\s+(?:(?:the|your|a|an|his|her|that|this)\s+)?(?:[\w'-]+\s+)?$/;
const ON_HAND_BEFORE = /\b(?:on hand|in case)\s+(?:for|of)\s+(?:(?:a|an|the|any|some)\s+)?(?:[\w'-]+\s+)?$/;
// Its risk or its test: "the statin lowers your stroke risk", "your breast cancer risk is average", "I will order a covid
// test", "a lupus antibody" (not "your covid test was positive").
// So are its scale or score ("the stroke scale", "a depression scale called the PHQ-9", "your anxiety score was normal"; not
// one said to be high) and a test of it named with its kind ("a sleep apnea home test").
const ITS_RISK_OR_TEST_AFTER =
  /^(?:(?:home|blood|urine|rapid|screening|breath|skin|stool|pcr|antigen|saliva)\s+)?(?:risks?|tests?|testing|swabs?|antibod(?:y|ies)|titers?|panels?|work-?ups?|protocol|scales?|scores?|screeners?|warning signs?)\b(?!(?:\s+[\w']+){0,3}\s+(?:positive|showed|shows|confirmed|high|elevated|consistent|concerning|\d\d))/;
// So are others who have it: "you work with covid patients", "flu cases are up".
const NOT_THE_PATIENTS_AFTER = /^(?:screening|screenings|screen|screens|free|unit|units|ward|wards|floor|season|patients|cases|population)\b|^(?:(?:is|has been|'s)\s+(?:\w+\s+)?)?going around\b/;
// "since covid", "because of covid we do video visits", "during covid", "in the covid setting": the pandemic, not the patient's infection.
const PANDEMIC_BEFORE = /\b(?:since|during|throughout|because of|due to|before|with all|pre)(?: the)?$/;
const PANDEMIC_AFTER = /^(?:pandemic|times|era|restrictions|lockdown|lockdowns|shutdown|outbreak|setting|environment|climate|world)\b/;
const isCovid = (tokens: string[]) => tokens.some((t) => /^(?:covid(?:-19)?|coronavirus)$/.test(t));
const VACCINE_BEFORE = /\bcompleted (?:your|the|his|her|their)$/;

// Said right before a condition, each says it is not what the patient has (examples in the comments).
const MAY_COME_CUES = [
  // What may come: "can lead to kidney disease", "could turn into pneumonia", "can make you feel nauseous".
  String.raw`(?:can|could|may|might|will|would)\b(?:\s+[\w']+){0,5}?\s+(?:lead to|cause|result in|turn into|progress to|develop into|become|give you|make you feel|make you)`,
  String.raw`(?:sometimes|often|usually|commonly|occasionally|rarely)\s+(?:cause|causes|gives you|give you|leads to)`,
  // A drug's side effect: "you might feel some nausea", "the most common side effect is diarrhea", "common ones are headache",
  // "it's normal to feel a little dizzy", "you shouldn't get any dizziness", "a black box warning for suicidal thoughts".
  String.raw`(?:might|may|could|will)\s+(?:\w+\s+)?(?:feel|notice|experience|get|develop|end up with)`,
  // "I don't want this to turn into pneumonia".
  String.raw`(?:don't|do not|wouldn't|would not)\s+(?:want|like)\s+(?:this|it|that|you|things)\s+to\s+(?:turn into|become|develop into|progress to|get|develop|end up with)`,
  String.raw`side effects?(?:\s+[\w']+){0,4}?\s+(?:is|are|include|includes|can be|could be|may be)`,
  String.raw`(?:common|main|usual|rare|serious|other) ones? (?:are|is|include)`,
  String.raw`(?:normal|common|expected|okay|ok) to (?:feel|have|get|notice|experience)`,
  String.raw`(?:shouldn't|should not|won't|will not) (?:get|have|feel|notice|experience)`,
  String.raw`warnings? (?:for|about|of)`,
  // What the plan is conditional on: "if this turns out to be a kidney stone", "call if you develop a fever", "whenever you
  // get chest pain", "report any chest pain", "tell me if it spreads, that could mean a stroke".
  String.raw`if (?:this|it|that) (?:turns out to be|ends up being|turns into|becomes|develops into|is|was|were)`,
  String.raw`if (?:it's|that's)`,
  // "to find out if there's kidney disease", "to see if there is any arthritis".
  String.raw`\bif there(?:'s| is| are)(?: any)?`,
  // So is what would follow in a case supposed ("if you stop the blood thinner, you could have a stroke", "if you had diabetes",
  // "if this spreads, it becomes cellulitis").
  String.raw`\bif\b(?:\s+[\w']+){0,5}?\s+(?:you|he|she|they)\s+(?:(?:could|might|may|would|will|can)\s+)?(?:(?:ever|again|suddenly)\s+)?(?:develop|develops|get|gets|notice|notices|start having|experience|have|has|had|end up with)`,
  String.raw`\bif\b(?:\s+[\w']+){0,5}?\s+(?:it|this|that|they)\s+(?:(?:could|might|may|would|will|can)\s+)?(?:becomes?|turns? into)`,
  // A case imagined: "imagine you have a heart attack at home", "say you get the flu", "suppose this were a stroke", "had this
  // been pneumonia, you'd have a fever", "you would have weakness", "you'd be more likely to have a heart attack".
  String.raw`(?:imagine|suppose|supposing|pretend|what if|let's say|(?<=^(?:(?:so|okay|ok|now|well|and|but)\s)?)say)\s+(?:that\s+)?(?:you|he|she|they|it|this|that)\s+(?:(?:were|was|had|did)\s+)?(?:have|has|had|get|gets|got|develop|develops|were|was|is|to (?:have|get|be))`,
  String.raw`had (?:this|it|that) been|if (?:this|it|that) (?:were|had been)`,
  String.raw`(?:more|less) likely to (?:have|get|develop)`,
  // "This winter has been rough for asthma."
  String.raw`(?:this|the|last) (?:spring|summer|fall|autumn|winter|season|year) (?:has been|is|was) (?:\w+\s+)?(?:rough|bad|terrible|hard|tough|brutal) (?:for|on)`,
  // What may be needed one day: "at some point you might need treatment for osteoporosis".
  String.raw`(?:might|may|could|will|would)\s+(?:eventually\s+|someday\s+|also\s+|one day\s+)?need\s+(?:[\w-]+\s+){0,2}?for`,
  // A comparison: "this is different from a heart attack", "unlike a stroke, this will go away", "rather than pneumonia",
  // "it sounds more like a virus than strep throat".
  String.raw`(?:different from|different than|unlike|not like|nothing like|far from|rather than|instead of|compared (?:to|with)|(?:more|less|worse|better) than|more (?:like|likely)(?:\s+[\w'-]+){1,3}?\s+than)`,
  // Short of it: "this doesn't rise to the level of depression", "you don't meet the criteria for fibromyalgia", "the x-ray
  // is clear of pneumonia", "I'd hold off on calling it COPD".
  String.raw`(?:doesn't|does not|don't|do not|didn't|did not|wouldn't|would not|no longer)\s+(?:quite\s+|yet\s+)?(?:rise to the level of|reach the level of|meet (?:the\s+)?(?:\w+\s+)?criteria (?:for|of)|qualify (?:as|for)|count as)`,
  String.raw`(?:is|are|was|were|looks?|came back)\s+(?:all\s+|completely\s+)?(?:clear|free) of`,
  String.raw`(?:hold off on|wait on|before) (?:calling|diagnosing|labeling|labelling) (?:it|this|that|you with)?`,
  String.raw`(?:early|soon) to (?:call|diagnose|label) (?:it|this|that|you with)?`,
  // "It's not the kind of rash you'd see with shingles".
  String.raw`not (?:the|a|your)?\s*(?:kind|type|sort) of\b(?:\s+[\w']+){0,4}?\s+(?:with|from|in)`,
  // Done with: "we've basically beaten the cancer", "you are no longer anemic".
  String.raw`(?:we've|you've|we have|you have|i've|has|have)\s+(?:\w+\s+)?(?:beaten|beat|conquered|gotten rid of|got rid of|kicked)`,
  String.raw`(?:you're|you are|he's|he is|she's|she is|they're|they are|is|are)\s+no longer`,
  // A threshold taught: "an A1c over 6.5 means diabetes", "a BMI over 30 is obesity", "a T-score below minus 2.5 is
  // osteoporosis", "the cutoff for anemia" (not "your A1c is 7.2, which means diabetes": no threshold said).
  String.raw`(?:over|above|below|under|greater than|less than|at least|or (?:higher|more|lower|less|above|below))\s+(?:minus\s+)?[\d.]+(?:\s+(?:or (?:higher|more|lower|less|above|below)|percent|%))?\s+(?:means|is|is considered|counts as|defines|would be|indicates|is called)`,
  String.raw`(?:cutoffs?|cut-offs?|thresholds?|definition|range) (?:for|of)`,
  // What carries it: "ticks in this area carry Lyme disease", "mosquitoes there can carry dengue".
  String.raw`(?:ticks?|mosquito(?:e)?s|bugs?|insects?|bats?|birds?|rodents?|mice|rats?|deer|raccoons?)\b(?:\s+[\w']+){0,3}?\s+(?:can\s+|may\s+|often\s+|sometimes\s+)?(?:carry|carries|spread|spreads|transmit|transmits)`,
  String.raw`\bif\b(?:\s+[\w']+){1,8}?\s+(?:that|it|this)\s+(?:could|may|might|can|would)\s+(?:mean|signal|indicate|be a sign of)`,
  // A result the plan waits on: "if the x-ray shows pneumonia", "if the culture grows strep throat", "if the stool test is
  // positive for c diff", "once we confirm a urinary tract infection".
  String.raw`\bif\b(?:\s+[\w'-]+){0,4}?\s+(?:shows?|showed|finds?|reveals?|confirms?|grows?|detects?|(?:is|are|comes? back|came back) positive for|comes? back (?:with|showing)|turns? up|picks? up)`,
  String.raw`\bonce (?:we|i|the [\w-]+|your [\w-]+) (?:confirm|confirms|find|finds|see|sees|know)`,
  String.raw`(?:whenever|any time|anytime|every time)(?:\s+[\w']+){0,2}?\s+(?:you|he|she|they)\s+(?:get|gets|have|has|feel|feels|develop|develops|notice|notices)`,
  String.raw`(?:report|tell us about|let us know about) any`,
  // What the plan watches or tests for: "watch for signs of diabetes", "the main thing to watch for is a rash", "keep an eye on
  // that mole for skin cancer", "the biopsy will show whether it's cancer" (not "whether your diabetes …").
  String.raw`(?:watch|look) (?:out )?for(?: is| are)?(?: any)?(?: signs? of)?`,
  String.raw`keep an eye out for`,
  String.raw`(?:keep an eye on|monitor|watch)(?:\s+[\w']+){1,4}?\s+for`,
  // "I'll check that mole for melanoma" (not "a CBC for the fatigue": the symptom a test is for is coded).
  String.raw`(?:check|look at|examine|biopsy)\s+(?:that|this|the|your|those|these)\s+(?:\w+\s+)?(?:moles?|spots?|lumps?|lesions?|growths?|bumps?|nodules?|skin|area|feet|foot|eyes|legs|body)\s+for`,
  // Taught: "we went over the signs of a heart attack", "we talked about stroke warning signs" (ITS_RISK_OR_TEST_AFTER).
  String.raw`(?:went over|go over|going over|talked about|discussed|reviewed|explained|taught you|educated you (?:on|about))\s+(?:the\s+)?(?:warning\s+)?(?:signs?|symptoms?)\s+(?:of|for)`,
  String.raw`\bwhether(?:\s+(?!(?:your|his|her|their|my)\b)[\w']+){0,3}?`,
  // What a test is for: "we'll test you for covid", "your pap smear checks for cervical cancer", "labs to assess for anemia",
  // "a TSH to look into hypothyroidism", "the sleep study is to diagnose sleep apnea", "a chest x-ray to see about
  // pneumonia", "the bone density scan is for osteoporosis" (not "tested positive for").
  // What a drug is used for in general: "the same medicine they use for epilepsy", "we use this inhaler for COPD too" (not
  // "we'll use it for your COPD": an owner, and no plan in the present tense).
  String.raw`(?:(?:they|doctors|people)\s+(?:also\s+|often\s+|usually\s+|sometimes\s+|commonly\s+)?(?:use|give|prescribe)(?:\s+(?!(?:you|him|her)\b)[\w']+){0,3}?|we\s+(?:also\s+)?(?:use|give|prescribe)(?:\s+(?:this|that|it|the same)(?:\s+[\w']+){0,2}?)?)\s+for`,
  String.raw`(?:tests?|testing|tested|checks?|checking|checked|screens?|screening|screened|evaluate[sd]?|evaluating|assess(?:es|ed)?|assessing|work(?:ing)? (?:you|him|her) up)(?:\s+(?:you|him|her|them))?\s+for`,
  String.raw`(?:look|looks|looking|dig|digging) into|to (?:diagnose|detect)|(?:diagnoses|detects)|see about`,
  String.raw`(?:tests?|scans?|study|x-rays?|mri|ct|ultrasound|echo\w*|ekg|labs?|blood work|bloodwork|colonoscopy|mammogram|smear|biopsy|culture|panel|swab)\s+(?:is|are)\s+(?:(?:to|for)\s+(?:look|check|screen|test)\s+)?for`,
  // A differential: "we need to think about multiple sclerosis" (the lists are DIFFERENTIAL_BEFORE's).
  String.raw`(?:think about|thinking about|consider|considering|considered)`,
  // The patient's worry: "you were worried about a heart attack", "I know you're concerned about breast cancer", "you thought
  // you had the flu", "you were scared it might be skin cancer", "your fear was a stroke" (not "worried about your diabetes").
  String.raw`(?:you|you're|you've|she|she's|he|he's|they|they're)\b(?:\s+[\w']+){0,3}?\s+(?:worried|concerned|scared|afraid|nervous|anxious|frightened|terrified)\s+(?:about|of|that|for)?(?:\s*(?:it|this|that|you))?(?:\s+(?:was|is|were|had|has|have|might|may|could|would)(?:\s+(?:be|have|had|been))?)?`,
  String.raw`(?:you|she|he|they)\s+(?:thought|feared|worried|believed|were sure|was sure)\s+(?:that\s+)?(?:you|she|he|it|this|that)\s+(?:had|have|has|was|were|is|might have|might be|could be|could have)`,
  String.raw`(?:your|her|his|their) (?:main |biggest |big |only )?(?:fear|worry|concern)\s+(?:was|is|has been)`,
  String.raw`(?:your|her|his|their) (?:main |biggest |big |only )?(?:fears?|worry|worries|concerns?) (?:about|of|for|that)`,
  // The patient's own guess: "you think you might have sleep apnea", "you suspect it's gout", "you feel like it might be the
  // flu", "you looked it up and think it's lupus" (not "I think you have …", nor "you think your asthma is worse").
  String.raw`(?:you|she|he|they)\s+(?:[\w']+\s+){0,4}?(?:think|thinks|suspect|suspects|feel like|feels like|believe|believes|are convinced|'re convinced)\s+(?:that\s+)?(?:(?:you|it|this|that|she|he)(?:'s|\s+(?:might|may|could)\s+(?:have|be)|\s+(?:have|has|is|was))?|it's)`,
  // What the patient saw: "you saw an ad about sleep apnea".
  String.raw`(?:saw|seen|heard|watched|read)\s+(?:an? )?(?:ad|advert|commercial|show|video|story|article|post|program|programme|segment|something)\s+(?:about|on)`,
  // Said not to be, or not found: "I wouldn't call it gout", "you can't have gout with these labs", "this couldn't be a
  // stroke", "it won't turn out to be cancer", "nothing suggests a heart attack", "it's nothing serious like cancer", "we can
  // cross off lupus", "you are too young for a stroke", "hard to believe this is gout" (not "nothing is helping your migraines").
  String.raw`(?:wouldn't|would not|couldn't|could not|can't|cannot|won't|will not)\s+(?:[\w']+\s+){0,3}?(?:be|have|call (?:it|this|that))`,
  String.raw`nothing\b(?:\s+[\w']+){0,4}?\s+(?:suggests?|to suggest|indicates?|to indicate|points? to|looks? like|like|consistent with|concerning for|worrisome for)`,
  // "There's no swelling or redness to suggest cellulitis": what is not found does not point to it.
  String.raw`\bno\b(?:\s+[\w']+){1,6}?\s+to (?:suggest|indicate|point to|make me think of)`,
  // "Your EKG didn't show anything concerning for a heart attack" (the negation too far back for its own window).
  String.raw`(?:didn't|did not|doesn't|does not|don't|do not|isn't|wasn't|no|not|never)\b(?:\s+[\w']+){0,3}?\s+(?:anything|signs?|evidence)\s+(?:\w+\s+)?(?:concerning|worrisome|suspicious|suggestive|indicative)\s+(?:for|of)`,
  String.raw`cross(?:ed|ing)? (?:off|out)|too (?:young|old|healthy|fit|active) (?:for|to have)|(?:hard|difficult) to believe (?:this|it|that) (?:is|was|'s)`,
  // The patient's question or reading, a topic: "you asked about sleep apnea", "you read about fibromyalgia online", "you were
  // wondering about thyroid problems", "you wanted to know about diabetes" (not "you mentioned some chest pain", reported).
  String.raw`(?:you|she|he|they)(?:\s+(?:were|was|had))?\s+(?:asked|asking|read|reading|wondering|wondered|researched|looked up|wanted to know|want to know|curious)(?:\s+(?:about|into|on))?`,
  String.raw`(?:your|her|his|their) questions? (?:about|on|regarding)`,
  // The risk weighed: "the biggest risk is a stroke during the procedure".
  String.raw`(?:biggest|main|major|greatest|only|real|big|serious) (?:risks?|dangers?|complications?) (?:is|are|would be|here is|with (?:this|that|it) is)`,
  // Others: "some people get a headache", "I had a patient with lupus".
  String.raw`(?:some|many|most|other) (?:people|patients|folks)(?:\s+[\w']+){0,2}`,
  String.raw`(?:a|another|one|other|my) patients?(?:\s+[\w']+){0,3}?\s+with`,
];
const MAY_COME_BEFORE = new RegExp(
  String.raw`\b(?:${MAY_COME_CUES.join('|')})\s+(?:(?:a|an|the|some|more|any|new|worse|worsening|little|bit|mild|slight)\s+){0,2}(?:(?!(?:your|my|his|her|their|our)\b)[a-z'-]+\s+)?$`,
);
// A differential, each condition of its list however it is named: "the differential includes pneumonia, bronchitis or a
// viral infection", "other things on the list would be lupus", "another possibility is carpal tunnel", "less likely
// possibilities are a hernia or a kidney stone".
// So is each of a list of complications or of signs to look out for: "complications can include a blood clot or a pulmonary
// embolism", "look out for signs of infection like redness or fever".
const DIFFERENTIAL_BEFORE = new RegExp(
  String.raw`\b(?:differential(?: diagnosis)?(?: here)?\s+(?:includes?|would include|is|are|would be)|(?:complications?|risks?|dangers?)(?:\s+[\w']+){0,4}?\s+(?:(?:can|could|may|might|would)\s+)?(?:include|includes|including)|(?:watch|look) (?:out )?for (?:any )?(?:signs?|symptoms?) of [\w']+(?: [\w']+)? (?:like|such as|including)|(?:other|another|less likely|more remote|alternative)\s+(?:things?|possibilit(?:y|ies)|causes?|options?|diagnos[ie]s|considerations?)(?:\s+(?:on the list|on my list|to consider|we consider|i considered|would be|could be|might be|are|is|include|includes)){1,2})` +
    String.raw`(?:\s+(?:(?:a|an|the|some)\s+)?[\w'-]+(?:\s+[\w'-]+)?\s+(?:or|and))*\s+(?:(?:a|an|the|some)\s+)?$`,
);
// "Uncontrolled diabetes can lead to kidney disease": a condition in general, as the subject of what it can do, is taught,
// not the patient's (whose would be "your diabetes").
// Said over time ("diabetes over many years can damage the kidneys"); what it can become ("a DVT can travel to the lungs");
// how grave it can be ("pneumonia can be serious in older people").
const OVER_TIME = String.raw`(?:(?:over (?:time|the years|many years|years|decades|the long term|the long run)|in the long run|long term|left untreated|if (?:left )?untreated|untreated|if uncontrolled)\s+)?`;
const GENERIC_SUBJECT_AFTER = new RegExp(
  String.raw`^${OVER_TIME}(?:can|could|may|might|will)\s+(?:\w+\s+)?(?:lead|cause|damage|increase|raise|put|affect|hurt|harm|make|result|look|appear|mimic|spread|travel|become|turn into|progress|break off)\b|^would (?:mean|indicate|signal|suggest|be a sign)\b|^(?:can|could|may) be (?:(?:very|really|quite)\s+)?(?:serious|dangerous|deadly|fatal|life-threatening)\b`,
);
// Said of a condition named bare or with "a" (not "the" or "your"): a drug's side effect ("nausea is a common side effect",
// "low blood sugar is the main risk with insulin", "constipation can happen with the iron", "headaches are common the first
// week", "dizziness is something to watch out for") or teaching ("osteoporosis affects one in two women", "a stroke happens
// when …", "shingles is caused by the chickenpox virus"). Not what it is ("hepatitis c is a viral infection that does affect
// his liver", "depression is very common and treatable"): on the tune fold that explains the patient's own.
const TAUGHT_SUBJECT_AFTER = new RegExp(
  [
    String.raw`^(?:is|are)\s+(?:(?:a|an|the)\s+)?(?:(?:common|known|main|usual|rare|serious|possible|frequent|big|major|most|typical|well-known|potential)\s+)*(?:side effects?|risks? (?:with|of|from|on)|downside)`,
    String.raw`^(?:is|are)\s+(?:(?:very|pretty|quite|really|fairly|more|less)\s+)?(?:common|rare|uncommon|normal|expected|typical|unusual)\s+(?:with|on|from|the first|at first|in the first|for the first|early|when|in people|in (?:the|this|that|some|many) (?:country|countries|area|areas|region|part|parts)|where|among|around here|around there|out there)`,
    String.raw`^(?:is|are) defined as`,
    // The season's: "allergies are terrible this spring".
    String.raw`^(?:is|are|has been|have been)\s+(?:(?:really|so|very|pretty)\s+)?(?:terrible|bad|awful|rough|high|everywhere|brutal)\s+(?:this|in the)\s+(?:spring|summer|fall|autumn|winter|season|year)`,
    String.raw`^(?:is|are) something to (?:watch|look) (?:out )?for`,
    String.raw`^(?:can|may|might|could|will|would)\s+(?:\w+\s+)?(?:happen|occur|come on)`,
    String.raw`^(?:causes|cause|affects|affect|damages|happens|occurs|develops|spreads|leads to|results in|raises (?:the|your) risk|increases (?:the|your) risk|runs in|runs on|is linked|are linked|is associated|are associated|is tied|are tied|usually has|often has|has no symptoms|is when|is what happens)`,
    String.raw`^(?:is|are)\s+(?:the|a)\s+(?:leading|number one|most common|main|biggest|common|major)\s+cause`,
    String.raw`^(?:is|are) caused by (?:a |an |the )?(?:[\w-]+\s+){0,2}?(?:virus|viruses|bacteria|bacterium|germs?|fungus|parasites?)\b`,
  ].join('|'),
);
const TAUGHT_CLAUSE = /^(?:(?:a|an|untreated|uncontrolled|chronic|long-term|long term|left untreated|if untreated|if left untreated|over time)\s*)?$/;
// "HPV causes cervical cancer", "smoking is the number one cause of lung cancer", "sugary drinks contribute to diabetes",
// "which leads to osteoporosis", "obesity is linked to diabetes": what a cause leads to, in general (named bare or with "a").
// The cause is said before it ("causes rash" alone, a clause cut from "allergic to penicillin, causes rash", is not taught).
const CAUSED_BEFORE =
  /\S\s+(?:causes|cause|contributes? to|contributing to|leads? to|results? in|is what causes|are what cause|known to cause|likely to cause|tends? to cause|(?:is|are)\s+(?:\w+\s+)?(?:linked|tied) to|(?:number one|leading|main|most common|biggest|common|major|frequent|usual) causes? of)\s+(?:(?:a|an|more|some)\s+)?(?:(?!(?:your|my|his|her|their|our|the)\b)[a-z'-]+\s+)?$/;
// What a drug can help with, in general: "an antidepressant can also help with chronic pain" (not "it can help with the
// wheezing" or "with your knee pain").
const CAN_HELP_BEFORE = /\b(?:can|could|may|might)\s+(?:also\s+)?(?:help|treat)(?:\s+with)?\s+(?:(?:a|an|some)\s+)?(?:(?!(?:your|my|his|her|their|our|the)\b)[a-z'-]+\s+)?$/;
const KNOWN_TO_CAUSE_BEFORE = /\b(?:(?:known|likely|tends?) to cause|(?:is|are)\s+(?:\w+\s+)?(?:linked|tied) to|leads? to|results? in|contributes? to|contributing to)\s+\S*\s*\S*\s*$/;
// "Statins are associated with muscle aches", "long-term use of a PPI is associated with osteoporosis": a drug's, not the
// patient's ("your chest pain is associated with shortness of breath" is).
const DRUG_ASSOCIATED_BEFORE = /\b(?:is|are)\s+(?:(?:often|commonly|strongly|sometimes|also)\s+)?associated with\s+(?:(?:a|an|more|some)\s+)?(?:(?!(?:your|my|his|her|their|our|the)\b)[a-z'-]+\s+)?$/;
const DRUG_WORD = /\b(?:medicines?|medications?|drugs?|pills?|statins?|steroids?|ppis?|use of|this one|that one)\b/;
const OWNED_BEFORE = /\b(?:your|you|my|i|his|her|their|he|she|they)\b/;
// "your blood tests ruled it out", "we screened you for hepatitis c and it was negative", "your previous doctor thought it
// was fibromyalgia, but I disagree": said after the condition, it is not what the patient has.
// "Appendicitis is less likely", "cancer is unlikely at your age", "Lyme disease is on my differential", "heart failure is
// something we'll want to exclude", "diabetes would be on the list": a possibility weighed, not found.
const WEIGHED_AFTER =
  /^(?:[\w']+\s+){0,2}?(?:(?:is|are|seems?|'s)\s+(?:(?:much|far|a lot|very|less|also|quite)\s+)?(?:unlikely|less likely|not likely|doubtful|on (?:my|the) (?:differential|list)|in the differential)|(?:is|are|'s) something (?:we|i)(?:'ll|'d| will| would)?(?:\s+[\w']+){0,3}?\s+(?:exclude|rule out|look for|check for|consider)|(?:would|could|might) be on (?:the|my) (?:list|differential)|off (?:the|my|our) (?:list|differential))\b/;
const NOT_FOUND_AFTER =
  /^(?:[\w'-]+\s+){0,6}?ruled (?:it|that|this|them) out\b|^(?:[\w'-]+\s+){0,6}?(?:do not|does not|did not|don't|doesn't|didn't) (?:show|find) (?:it|that|this|them|any|one)\b|^(?:and|but)?\s*(?:it|that|which|the test|the results?)\s+(?:was|were|came back)\s+(?:negative|normal|clear)\b|^(?:was|were|came back)\s+(?:0|zero|negative)\b/;
// Another's opinion or the records ("the cardiologist thought it might be afib", "your records say you had a heart murmur",
// "the neurologist wondered about multiple sclerosis", "your last doctor wrote down fibromyalgia", "your old records mention
// gout") that the sentence goes on to contradict: "but I disagree", "but the monitor was normal", "but the CT didn't show
// one", "but I don't hear one", "but I'm not sure that fits", "but you've never had an attack".
const ATTRIBUTED_BEFORE =
  /\b(?:thought|felt|said|says|believed|suspected|told you|wondered|mentioned|wrote(?: down)?|noted|listed|records? (?:say|says|said|mention|mentions|show|shows|list|lists)|charts? (?:says|said|mentions|lists|shows))\b(?:\s+(?:it|this|that|you|was|were|had|it's|is|might|could|may|be|have|about|if|whether|possible|probable|maybe|of))*\s+(?:(?:a|an|some)\s+)?$/;
const RESULT_SOURCE =
  String.raw`(?:monitors?|tests?|testing|x-rays?|ct|cat scan|mri|scans?|echo\w*|ekg|ecg|biopsy|labs?|blood work|bloodwork|study|ultrasound|results?|cultures?|swabs?|exam|holter|colonoscopy|endoscopy|mammogram|work-?up|imaging|films?)`;
const DISAGREED_AFTER = new RegExp(
  String.raw`^(?:[\w'-]+\s+){0,4}?but\s+(?:(?:i|we)\s+(?:disagree|don't (?:think|agree|believe)|do not (?:think|agree|believe)|(?:don't|do not|didn't|did not|can't|cannot) (?:hear|see|find|feel)\b)|(?:i'm|i am) not (?:sure|convinced)|(?:it|this|that) (?:isn't|is not|wasn't|was not|'s not)\b|(?:you've|you have|you) never\b|(?:the|your|my|his|her)\s+(?:[\w'-]+\s+){0,2}?${RESULT_SOURCE}\s+(?:(?:was|were|is|are|came back|has been|have been)\s+(?:(?:completely|totally|perfectly|all|entirely|pretty)\s+)?(?:normal|negative|clean|clear|fine|unremarkable|reassuring)|(?:didn't|did not|doesn't|does not|never) (?:show|find|confirm|pick up)))`,
);

// "If you have chest pain, black stools or trouble swallowing, call us right away": warning signs to act on, each one in the
// list however far from the "if" (a recorded visit's unsure "chest" and "black" left "trouble swallowing" coded as dysphagia).
// Not "if you have questions about your diabetes, call me": the patient's own condition.
const WARNING_IF = /\bif\b(?:\s+[\w']+){0,6}?\s+(?:you|he|she|they|the patient) (?:(?:ever|again|suddenly) )?(?:have|has|get|gets|develop|develops|notice|notices|experience|experiences|start|starts|see|sees|feel|feels)\b/;
const ACT_NOW = /\b(?:call|go to|come back|come in|seek|return|let (?:me|us) know|head to|emergency|911|urgent care|right away|immediately)\b/;
const warningSign = (tokens: string[], start: number) =>
  !OWNER.test(tokens[start - 1] ?? '') && WARNING_IF.test(tokens.slice(Math.max(0, start - 14), start).join(' ')) && ACT_NOW.test(tokens.join(' '));

const SUPPOSITION = /\b(?:if|unless|otherwise|without|suppose|supposing|imagine|had (?:this|it|that) been|were (?:this|it|that))\b/;
const WOULD_HAVE_BEFORE = /\b(?:would|you'd|he'd|she'd|they'd|we'd)\s+(?:\w+\s+)?(?:have|get|develop|notice|feel)\s+(?:(?:a|an|the|some|any)\s+)?(?:(?!(?:your|my|his|her|their|our)\b)[a-z'-]+\s+)?$/;

// Where it is common: "there's a lot of Lyme disease where you hike", "there's measles going around at school" (not
// "there is a lot of arthritis in your knee").
const THERE_IS_BEFORE = /\bthere(?:'s| is| are| has been| have been)\s+(?:(?:a lot of|lots of|plenty of|more|so much|some)\s+)?$/;
const SOMEWHERE_AFTER =
  /^(?:where|in (?:the|this|that|these|those) (?:area|areas|region|country|countries|school|schools|community|town|state|woods|part|parts)|around (?:here|there|town|school|the community)|going around|out there|at (?:school|work|daycare))\b/;

/** Whether a mention is a consequence that may come, a warning sign, a condition taught in general, or one ruled out or disagreed with. */
export function mayComeOrRuledOut(tokens: string[], start: number, end: number): boolean {
  const before = `${tokens.slice(Math.max(0, start - 10), start).join(' ')} `;
  const after = tokens.slice(end, end + 14).join(' ');
  if (MAY_COME_BEFORE.test(before) || DIFFERENTIAL_BEFORE.test(before) || undecided(tokens, start, end) || NOT_FOUND_AFTER.test(after) || WEIGHED_AFTER.test(after) || warningSign(tokens, start)) return true;
  if (ATTRIBUTED_BEFORE.test(before) && DISAGREED_AFTER.test(after)) return true;
  // What would be so in a case supposed earlier in the sentence: "had this been pneumonia, you'd have a fever", "suppose this
  // were a stroke, you would have weakness".
  if (WOULD_HAVE_BEFORE.test(before) && SUPPOSITION.test(tokens.slice(0, start).join(' '))) return true;
  if (THERE_IS_BEFORE.test(before) && SOMEWHERE_AFTER.test(after)) return true;
  // "When inhaling this, it leads to an allergic reaction in his lungs": what this exposure does, the patient's; so is what
  // a drug named causes ("allergic to penicillin, which causes a rash", "penicillin causes rash"), unless it is known to.
  const drugNamed = /\ballerg/.test(tokens.join(' ')) || drugMatcher.match(tokens.slice(Math.max(0, start - 10), start)).length > 0;
  if (CAN_HELP_BEFORE.test(before)) return true;
  if (CAUSED_BEFORE.test(before) && (!drugNamed || KNOWN_TO_CAUSE_BEFORE.test(before)) && !/\b(?:it|this|that|it's|this is|that's)\s+(?:\w+\s+)?(?:causes|leads to|results in|is what causes|contributes to)\s+\S*\s*$/.test(before) && !/^(?:in|of|on|from) (?:your|his|her|my|their)\b/.test(after)) return true;
  if (DRUG_ASSOCIATED_BEFORE.test(before) && (DRUG_WORD.test(before) || drugMatcher.match(tokens.slice(0, start)).length)) return true;
  const clauseBefore = tokens.slice(0, start).join(' ').split(/\b(?:since|because|as|but|so|while|and)\b/).at(-1)!.trim();
  if (TAUGHT_SUBJECT_AFTER.test(after) && TAUGHT_CLAUSE.test(clauseBefore) && !/\ballerg/.test(tokens.join(' '))) return true;
  // "A heart attack feels like pressure in the chest": what one is like (not "the cough feels like it is getting worse").
  if (/^(?:feels|looks) like\b/.test(after) && /^(?:a|an)$/.test(clauseBefore)) return true;
  if (!GENERIC_SUBJECT_AFTER.test(after)) return false;
  // The condition opens its sentence or clause ("since low vitamin d can make you tired"), with no owner before it.
  const clause = tokens.slice(0, start).join(' ').split(/\b(?:since|because|as|but|so|while)\b/).at(-1)!.trim().split(' ').filter(Boolean);
  return clause.length <= 2 && !OWNED_BEFORE.test(clause.join(' '));
}

// Weight loss or gain as what the plan aims at ("we talked about weight loss", "I recommend weight loss", "weight loss will help
// your knees", "the goal is weight loss of ten pounds"), not the symptom ("you have had some weight loss", "I am concerned
// about the weight loss").
const WEIGHT_CHANGE = /^weight (?:loss|gain)$/;
const GOAL_BEFORE =
  /\b(?:(?:talk|talked|talking|discussed|discuss|spoke|speak|counsel(?:ed|ing)?|educated|went over|go over) (?:\w+ ){0,2}?about|recommend(?:ed|ing)?|encourage[ds]?|encouraging|work(?:ing)? on|focus(?:ing)? on|through|the goal is|goal of|aim(?:ing)? for|achieve|continue(?: the| your)?|start(?:ing)?|promote|promotes|support|supports|discussion of)\s+(?:(?:some|more|the|a|gradual|healthy|modest|intentional|further|continued)\s+)?$/;
const GOAL_AFTER = /^(?:will|would|can|could|should|is (?:the|a|your) (?:goal|key|best)|through|by|programs?|medications?|drugs?|surgery|goals?|plan|journey|efforts?|counseling|strategies)\b/;
const weightGoal = (tokens: string[], start: number, end: number) =>
  WEIGHT_CHANGE.test(tokens.slice(start, end).join(' ')) &&
  (GOAL_BEFORE.test(`${tokens.slice(Math.max(0, start - 6), start).join(' ')} `) || GOAL_AFTER.test(tokens.slice(end, end + 4).join(' ')));

/** Whether a sentence teaches about a condition, names its vaccine, or names it as resolved or not found by its test. */
export function notPresentSaid(tokens: string[], start: number, end: number): boolean {
  if (weightGoal(tokens, start, end) || idiom(tokens, start, end)) return true;
  const before = `${tokens.slice(Math.max(0, start - 8), start).join(' ')} `;
  if (ON_HAND_BEFORE.test(before) || GOT_OVER_BEFORE.test(before) || (FOR_BEFORE.test(before) && IN_CASE_AFTER.test(tokens.slice(end, end + 5).join(' ')))) return true;
  if (productName(tokens, start) && !CLAUSE_AFTER.test(tokens[end] ?? '')) return true;
  const next = tokens.slice(end, end + 4).join(' ');
  if (NOT_THE_PATIENTS_AFTER.test(next) || NAMED_FOR_IT_AFTER.test(next) || ITS_RISK_OR_TEST_AFTER.test(tokens.slice(end, end + 6).join(' '))) return true;
  if (TREATS_IT_AFTER.test(next) && !OWNER.test(tokens[start - 1] ?? '')) return true;
  if (isCovid(tokens.slice(start, end)) && (PANDEMIC_BEFORE.test(tokens.slice(Math.max(0, start - 3), start).join(' ')) || PANDEMIC_AFTER.test(tokens[end] ?? ''))) return true;
  if (VACCINE_AFTER.test(tokens[end] ?? '') || VACCINE_BEFORE.test(tokens.slice(Math.max(0, start - 3), start).join(' '))) return true;
  return TEACHING.test(tokens.join(' ')) || GONE_AFTER.test(tokens.slice(end, end + 10).join(' '));
}

/** Whether the words before a mention (its start) name it as a risk. */
export const namedAsRisk = (tokens: string[], start: number): boolean => RISK_OF.test(`${tokens.slice(Math.max(0, start - 6), start).join(' ')} `);
