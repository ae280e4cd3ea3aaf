/**
 * Issue 29 item 4 (precision): the fifth challenge set of 3 Dec, on kinds of talk the first four did not cover: a
 * differential left open, a possibility named and doubted, what a group of people gets in general, a condition got over or
 * passed, a few ways of teaching one, the other of two possibilities settled with "probably", a symptom said to look like
 * a diagnosis, and one gone since. Each sentence is made up (none is taken from ACI-BENCH) and said in the short knee
 * visit of challenge-visit.ts, after "let's talk about my assessment and plan"; each was wrongly coded before its fix unless
 * marked "already right before". The patient's own condition said beside the same words stays coded.
 */
import { describe, it } from 'vitest';
import { expectNone, expectCoded } from './challenge-visit';

describe('a differential left open, and a possibility named and doubted', () => {
  // An outpatient diagnosis is coded once established; until then the symptom is (ICD-10-CM guidelines, section IV.H).
  it('codes none of the possibilities', () => {
    expectNone([
      ["It's either a muscle strain or a herniated disc, and the MRI will tell us.", /^M51/],
      ["This could be gout or it could be an infection, so I'll tap the joint.", /^M10/],
      ["I'm thinking about a few things, like a kidney stone or appendicitis.", /^(N20|K35)/],
      ["It might be a kidney stone, it might be appendicitis, so we'll get a CT.", /^(N20|K35)/],
      ['This is either bronchitis or early pneumonia, and the chest x-ray will help sort it out.', /^(J20|J18)/],
      ["It could be carpal tunnel or a pinched nerve in your neck, so we'll do a nerve study.", /^(G56|M54)/],
      ["It may be gout or pseudogout, we'll know when we look at the fluid.", /^M10/],
      ["It sounds like it could be a UTI or a kidney infection, so we'll send a culture.", /^N39/],
      ["It could be lupus, but that's unlikely.", /^M32/],
      ["Maybe it's the start of shingles, but I don't really think that.", /^B02/],
      ["Some might call it fibromyalgia, but I wouldn't.", /^M79/],
      ["There's a small chance this is appendicitis, but I doubt it.", /^K35/],
      ['It sounds more like a virus than strep throat.', /^J02/],
      // Already right before, kept so.
      ["I'm not sure if this is a sprain or a fracture, so let's get an x-ray.", /^S/],
      ["We can't tell yet whether this is a fracture.", /^S/],
      ['The question is whether this is asthma or COPD.', /^(J45|J44)/],
      ["It's hard to say if it's a tension headache or a migraine.", /^(G44|G43)/],
      ["I don't think this is pneumonia.", /^J18/],
      ["It doesn't look like arthritis.", /^M1/],
    ]);
  });

  it('codes the one settled on, the patient\'s own named beside a possibility, and a single likely diagnosis treated', () => {
    expectCoded([
      ['This is either a tension headache or a migraine, but most likely a tension headache.', /^G44/],
      ['You have gout, or possibly pseudogout, and we will start colchicine.', /^M10/],
      ['It might be your asthma or your allergies acting up, so use the albuterol.', /^J45/],
      ["It could be a kidney stone, so we'll get a CT and give you something for the pain.", /^N20/],
      ['It sounds like strep throat, so we will start amoxicillin.', /^J02/],
      ['Your strep test is positive, so this is strep throat rather than a virus.', /^J02/],
      ['The x-ray shows pneumonia in the right lower lobe.', /^J18/],
      ["We'll treat your pneumonia with amoxicillin.", /^J18/],
    ]);
  });
});

describe('what a group of people gets, and what a condition is like', () => {
  it('codes none', () => {
    expectNone([
      ['Women your age often develop osteoporosis.', /^M81/],
      ['Men your age often get prostate cancer.', /^C61/],
      ['Most smokers eventually get COPD.', /^J44/],
      ['Many diabetics end up with kidney disease.', /^N18/],
      ['Kids get ear infections all the time.', /^H66/],
      ['Runners often get plantar fasciitis.', /^M72/],
      ['One in three adults has high blood pressure.', /^I10/],
      ['Pneumonia can be serious in older people.', /^J18/],
      ['A heart attack feels like pressure in the chest.', /^I21/],
      ['The statin protects you from a stroke.', /^I63/],
      ['I understand your concern about diabetes, but your sugar is normal.', /^E11/],
      // Already right before, kept so.
      ['Untreated, high blood pressure can lead to a stroke.', /^I63/],
      ["You're at risk for osteoporosis.", /^M81/],
      ['This medicine can cause nausea.', /^R11/],
      ['Your husband was just diagnosed with prostate cancer.', /^C61/],
      ['Your roommate has covid.', /^U07/],
      ["We'll screen for colon cancer.", /^C18/],
      ['Your A1c is normal, no diabetes.', /^E11/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['You have osteoporosis, and women your age often get it, so we will start alendronate.', /^M81/],
      ['You have plantar fasciitis like a lot of runners get.', /^M72/],
      ['You smoke and you have COPD, so we will start an inhaler.', /^J44/],
      ['I understand your concern about your diabetes, so we will check an A1c.', /^E11/],
      ['The rash looks like shingles, so we will start valacyclovir.', /^B02/],
      ['The cough feels like it is getting worse, so we will get a chest x-ray.', /^R05/],
    ]);
  });
});

describe('a condition got over, passed, worn off or corrected', () => {
  it('codes none', () => {
    expectNone([
      ['Your kidney stone has passed.', /^N20/],
      ['You passed the kidney stone last week.', /^N20/],
      ['The ear infection is over.', /^H66/],
      ['Your strep throat is over.', /^J02/],
      ['Your sinus infection has run its course.', /^J01/],
      ['The flu is behind you now.', /^J1[01]/],
      ['You got over the pneumonia.', /^J18/],
      ["You've recovered from covid.", /^U07/],
      ['You recovered from your concussion.', /^S06/],
      ['The vertigo has worn off.', /^R42/],
      ['Your anemia has been corrected.', /^D64/],
      // Already right before, kept so.
      ['Your pneumonia has cleared up.', /^J18/],
      ['The rash is completely gone.', /^(L30|R21)/],
    ]);
  });

  it('codes one not yet gone', () => {
    expectCoded([
      ['You have a kidney stone that has not passed yet, so we will give you tamsulosin.', /^N20/],
      ['Your pneumonia is getting better but it is not gone, so finish the antibiotics.', /^J18/],
      ['Your pain is over the kidney, so this looks like a kidney stone.', /^N20/],
    ]);
  });
});

describe('one of two settled on with "probably", a symptom said to look like a diagnosis, and one since gone', () => {
  it('codes none of the other possibility, the symptom explained, or what is gone', () => {
    expectNone([
      ['I think this is a migraine or a tension headache, probably a migraine.', /^G44/],
      ["It's bronchitis or pneumonia, most likely bronchitis, so we'll treat with rest and fluids.", /^J18/],
      ['The rash looks like shingles, so we will start valacyclovir.', /^L30/],
      ['The cough sounds like bronchitis, so we will hold off on antibiotics.', /^R05/],
      ["There's no swelling or redness to suggest cellulitis.", /^L03/],
      ["There's no reason to suggest you have a stroke.", /^I63/],
      ["You had some low blood pressure in the ER from dehydration, but that's fixed now.", /^(I95|E86)/],
      ['You used to be prediabetic, but now your A1c is normal.', /^R73/],
      ['You were anemic last year, but your blood count is normal now.', /^D64/],
      ["You were anemic last year, but it's normal now.", /^D64/],
    ]);
  });

  it('codes the one settled on, and one kept normal by a drug or still there', () => {
    expectCoded([
      ['I think this is a migraine or a tension headache, probably a migraine.', /^G43/],
      ["It's bronchitis or pneumonia, most likely bronchitis, so we'll treat with rest and fluids.", /^J20/],
      ["You were diagnosed with hypertension last year, but it's normal now on lisinopril.", /^I10/],
      ["You had high blood pressure last year, and it's still high, so we will start lisinopril.", /^I10/],
    ]);
  });
});

describe('what may develop, what is not wanted, a lesion checked for a disease, and too early to name', () => {
  it('codes none', () => {
    expectNone([
      ["We talked about your weight and I'm concerned you could develop diabetes.", /^E11/],
      ["I don't want this to turn into pneumonia, so we'll start an antibiotic.", /^J18/],
      ["I'll refer you to a dermatologist to check that mole for melanoma.", /^C43/],
      ["It's a little early to call this dementia.", /^F0/],
      ["It's not the kind of rash you'd see with shingles.", /^B02/],
    ]);
  });

  it('codes one found or said as likely now', () => {
    expectCoded([
      ['The biopsy of the mole showed melanoma, so we will refer you to surgery.', /^C43/],
      ["You might be developing a sinus infection, so we'll start amoxicillin.", /^J01/],
      ["I'd call this mild cognitive impairment, not dementia.", /^G31/],
    ]);
  });
});

describe('a vaccine that protects against it, an exam for it, and its warning signs taught', () => {
  it('codes none', () => {
    expectNone([
      ["We'll do the Shingrix today to protect against shingles.", /^B02/],
      ["We'll check your feet for neuropathy.", /^G6/],
      ['We talked about stroke warning signs.', /^I63/],
      ['We went over the signs of a heart attack.', /^I21/],
    ]);
  });

  it('codes the patient\'s own', () => {
    expectCoded([
      ['You have shingles, so we will start valacyclovir.', /^B02/],
      ['You have neuropathy in your feet from the diabetes, so we will start gabapentin.', /^G6/],
    ]);
  });
});

describe('no longer meeting the criteria, and a possibility said after the one settled on', () => {
  it('codes none', () => {
    expectNone([
      ['You no longer meet the criteria for diabetes.', /^E11/],
      ['Most likely this is a viral infection, though it could be strep throat.', /^J02/],
      ['I think this is a sinus infection, but it might be allergies.', /^J30/],
    ]);
  });

  it('codes the one settled on, and one whose criteria are met', () => {
    expectCoded([
      ['Most likely this is a viral infection, though it could be strep throat.', /^B34/],
      ['I think this is a sinus infection, but it might be allergies.', /^J01/],
      ["You meet the criteria for fibromyalgia, so we'll start duloxetine.", /^M79/],
      ["I think you have a sinus infection, and it may be bacterial, so we'll start amoxicillin.", /^J01/],
    ]);
  });
});

describe('what a drug is used for in general', () => {
  it('codes none', () => {
    expectNone([
      ['This is the same medicine they use for epilepsy.', /^G40/],
      ['We use this inhaler for COPD too.', /^J44/],
      ['The shot is the same one we give for osteoporosis.', /^M81/],
    ]);
  });

  it('codes what it is given to the patient for', () => {
    expectCoded([
      ["We'll use this inhaler for your COPD.", /^J44/],
      ['We give you the prednisone for the asthma flare.', /^J45/],
      ['So we use albuterol for the wheezing.', /^R06/],
    ]);
  });
});

describe('what the patient is to do if it ever happens', () => {
  it('codes none', () => {
    expectNone([
      ['Let me know if you ever have chest pain.', /^R07/],
      ['If you ever get a migraine, take the sumatriptan.', /^G43/],
      ['If you suddenly develop weakness on one side, call 911.', /^R53/],
    ]);
  });

  it('codes one the patient still has', () => {
    expectCoded([
      ['If you still have the cough in two weeks, come back.', /^R05/],
      ['If you ever have questions about your diabetes, call me.', /^E11/],
    ]);
  });
});
