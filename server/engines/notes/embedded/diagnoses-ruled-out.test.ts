/**
 * Issue 29 item 4: a condition the visit names as excluded, prevented, taught, resolved, only possible, another person's, or
 * a symptom the clinician names as a diagnosis, is not coded (chosen on the ACI-BENCH train tune fold).
 */
import { describe, expect, it } from 'vitest';
import { codesOf, OPENING, PLAN } from './challenge-visit';

describe('a condition named as excluded, prevented, taught, vaccinated against, resolved or tested negative is not coded', () => {
  const KNEE = `${OPENING}${PLAN}[doctor] For your right knee, I think this is osteoarthritis. Take ibuprofen 400 milligrams as needed.\n`;
  it('codes none of a second challenge set\'s sentences, each coded before', () => {
    const cases: Array<[string, RegExp]> = [
      ['I want to exclude appendicitis with an ultrasound.', /^K35/],
      ['I have a low suspicion for pneumonia.', /^J18/],
      ['Your pneumonia from last month has resolved.', /^J18/],
      ['In case you get a migraine, take the sumatriptan.', /^G43/],
      ['Symptoms of a heart attack include chest pain and shortness of breath.', /^(I21|R07|R06)/],
      ['You are vaccinated against hepatitis b.', /^B18/],
      ['Your depression screening was negative.', /^F32/],
      ['Your covid test was negative.', /^U07/],
      ['You no longer have anemia, your blood count is normal.', /^D64/],
      ['Smoking is a risk factor for lung cancer.', /^C34/],
      ['We want to keep you from getting pneumonia.', /^J18/],
      ['The blood thinner helps you avoid a stroke.', /^I63/],
      ['You have completed your covid-19, and I recommend the shingles vaccine next month.', /^(U07|B02)/],
    ];
    for (const [said, code] of cases) expect(codesOf(`${KNEE}[doctor] ${said}`).filter((c) => code.test(c)), said).toEqual([]);
  });

  it('codes the one of two possibilities the clinician settles on, and a positive test', () => {
    const codes = codesOf(`${OPENING}${PLAN}[doctor] This is either a tension headache or a migraine, but most likely a tension headache.`);
    expect(codes.some((c) => c.startsWith('G44'))).toBe(true);
    expect(codes.some((c) => c.startsWith('G43'))).toBe(false);
    expect(codesOf(`${KNEE}[doctor] Your covid test was positive, so you have covid-19.`).some((c) => c.startsWith('U07'))).toBe(true);
  });
});

describe('a consequence that may come, a conditional, what others get, or a condition ruled out or disagreed with is not coded', () => {
  const KNEE = `${OPENING}${PLAN}[doctor] For your right knee, I think this is osteoarthritis. Take ibuprofen 400 milligrams as needed.\n`;
  it('codes none of a third challenge set\'s sentences, each coded before', () => {
    // Written for the categories, not taken from ACI-BENCH.
    const cases: Array<[string, RegExp]> = [
      ['Uncontrolled diabetes can lead to kidney disease over time.', /^(E11|N18)/],
      ['High blood pressure can damage your kidneys and cause heart failure.', /^(I50|N18)/],
      ['If this turns out to be a kidney stone, we will get a urologist involved.', /^N20/],
      ['Tylenol is safer for your liver than alcohol, and alcohol can cause cirrhosis.', /^K74/],
      ['We talked about whether this could be rheumatoid arthritis, and your blood tests ruled it out.', /^M06/],
      ['We screened you for hepatitis c and it was negative.', /^B18/],
      ['Without treatment this could turn into pneumonia.', /^J18/],
      ['Your previous doctor thought it was fibromyalgia, but I disagree.', /^M79/],
      ['Some people get a headache from this medicine.', /^R51/],
      ['We need to watch for signs of diabetes.', /^E11/],
      ['Call me if the swelling gets worse or you develop a fever.', /^R50/],
      ['You had shingles a few years ago and it has not come back.', /^B02/],
      ['You qualify for the lung cancer screening program.', /^C34/],
      ['The flu is going around, so wash your hands.', /^J1[01]/],
      ["We'll check your vitamin d, since low vitamin d can make you tired.", /^E55/],
      ['I wonder if this is early gout, but I really think it is osteoarthritis.', /^M10/],
      ["To find out whether you have sleep apnea, we'll do a sleep study.", /^G47/],
      ["The biopsy will show whether it's cancer.", /^C80/],
      ["We'll keep an eye on that mole for skin cancer.", /^C44/],
      ["Melanoma can look like this, so I'll take a biopsy.", /^C43/],
      ['Tell me if the numbness spreads, that could mean a stroke.', /^I63/],
      ["I'm not seeing anything that looks like cancer.", /^C80/],
      ['You are cancer free.', /^C80/],
      ["There's no reason to think this is rheumatoid arthritis.", /^M06/],
      ['Your scan came back clear for cancer.', /^C80/],
      ['Whenever you get chest pain, use the nitroglycerin.', /^R07/],
      ['You might feel some nausea with the metformin at first.', /^R11/],
      ['The most common side effect is diarrhea.', /^R19/],
      ['A side effect of the steroid is high blood sugar.', /^R73/],
      ['This medicine sometimes causes constipation.', /^K59/],
      ['You could get a yeast infection from the antibiotic.', /^B37/],
      ["It's normal to feel a little dizzy the first few days.", /^R42/],
      ['I had a patient last week with lupus who had the same rash.', /^M32/],
      ['Let me know if it turns into a sinus infection.', /^J01/],
      ['It can make you feel nauseous.', /^R11/],
      ['Common ones are headache and upset stomach.', /^R51/],
      ['Report any chest pain to us right away.', /^R07/],
      ['The main thing to watch for is a rash.', /^L30/],
      ["You shouldn't get any dizziness from this one.", /^R42/],
      ['There is a black box warning for suicidal thoughts in young people.', /^R45/],
      ['Since covid you have been working from home, so try to walk more.', /^U07/],
      ['Because of covid we are doing more video visits.', /^U07/],
      ['During covid a lot of people gained weight.', /^U07/],
      ['With covid going around, wear a mask.', /^U07/],
      ['I work in the covid unit on weekends.', /^U07/],
    ];
    for (const [said, code] of cases) expect(codesOf(`${KNEE}[doctor] ${said}`).filter((c) => code.test(c)), said).toEqual([]);
  });

  it('still codes the patient\'s own condition said beside what it can cause or a negative test', () => {
    const cases: Array<[string, RegExp]> = [
      ['Your diabetes can cause nerve damage, so we will check your feet.', /^E11/],
      ['You have type 2 diabetes, which can lead to kidney disease.', /^E11/],
      ['Diabetes is well controlled on metformin.', /^E11/],
      ["Hypertension, it can cause strokes, so let's keep it controlled on lisinopril.", /^I10/],
      ['I thought it was gout, and the fluid from the joint confirmed gout.', /^M10/],
      ['You have pneumonia, and the covid test was negative.', /^J18/],
      ['Your asthma is stable and this is normal for you.', /^J45/],
      ['Your diabetes and high blood pressure can lead to kidney damage.', /^I10/],
      ["Let's check whether your diabetes is under control with an a1c.", /^E11/],
      ["You may have a sinus infection, so we'll start amoxicillin.", /^J01/],
      ["Your cough is a side effect of the lisinopril, so we'll switch to losartan.", /^R05/],
      ['Your diarrhea is probably from the metformin, so we will switch to the extended release.', /^R19/],
      ["You could have a urinary tract infection, so we'll send a urine culture and start nitrofurantoin.", /^N39/],
      ['You tested positive for covid last week and you still have a cough.', /^U07/],
      ['After covid you have had a lingering cough.', /^U07/],
    ];
    for (const [said, code] of cases) expect(codesOf(`${KNEE}[doctor] ${said}`).some((c) => code.test(c)), said).toBe(true);
    expect(codesOf(`${KNEE}[doctor] You have type 2 diabetes, which can lead to kidney disease.`).some((c) => c.startsWith('N18'))).toBe(false);
  });
});

describe('a symptom the clinician names as a diagnosis is not coded beside it', () => {
  it('codes the migraine, not the headache, and the contact dermatitis, not the rash', () => {
    const migraine = codesOf(`${OPENING}${PLAN}[doctor] The headaches you have been getting are migraines, so we will start sumatriptan as needed.`);
    expect(migraine.some((c) => c.startsWith('G43'))).toBe(true);
    expect(migraine.some((c) => c.startsWith('R51'))).toBe(false);
    const rash = codesOf(`${OPENING}${PLAN}[doctor] The rash is contact dermatitis from the new soap.`);
    expect(rash.some((c) => c.startsWith('L23'))).toBe(true);
    expect(rash.some((c) => c.startsWith('L30'))).toBe(false);
  });

  it('keeps a symptom beside a condition it is not said to be', () => {
    const codes = codesOf(`${OPENING}${PLAN}[doctor] Your headache is worse this week, and your hypertension is well controlled on lisinopril.`);
    expect(codes.some((c) => c.startsWith('I10'))).toBe(true);
    expect(codes.some((c) => c.startsWith('R51'))).toBe(true);
  });
});
