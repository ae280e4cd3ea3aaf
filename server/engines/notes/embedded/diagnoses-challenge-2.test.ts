/**
 * Issue 29 item 4 (precision): the second stop's challenge sets of 2 Dec, continued from diagnoses-challenge.test.ts. Each
 * sentence is made up for a class of talk a careful coder does not code from that sentence alone (none is taken from ACI-BENCH),
 * said in a short visit after "let's talk about my assessment and plan" beside a knee osteoarthritis the plan does assess; each
 * wrongly coded before its fix unless marked "already right before". The patient's own condition said beside the same words
 * stays coded.
 */
import { describe, expect, it } from 'vitest';
import { OPENING, PLAN, codesOf, expectNone, expectCoded } from './challenge-visit';

describe('weight loss as the plan\'s aim, what is to be avoided, and a side that is a word of talk', () => {
  it('codes no weight loss the plan aims at and nothing to be avoided', () => {
    expectNone([
      ['We talked about weight loss.', /^R63/],
      ['I recommend weight loss through diet and exercise.', /^R63/],
      ['Weight loss will help your knees.', /^R63/],
      ["Let's work on weight loss before the next visit.", /^R63/],
      ['The goal is weight loss of ten pounds.', /^R63/],
      ['A healthy diet and weight loss will lower your blood sugar.', /^R63/],
      ['You should avoid dehydration in the heat.', /^E86/],
      // Already right before, kept so.
      ['I will refer you to our weight loss program.', /^R63/],
      ['Hydration will help prevent dehydration.', /^E86/],
      ['Take Imodium for diarrhea as needed.', /^R19/],
    ]);
  });

  it('codes the weight loss that is the patient\'s, and a condition said with the drug that keeps it from coming back', () => {
    expectCoded([
      ['You have lost weight unintentionally, about ten pounds of weight loss, so we will check your thyroid.', /^R63\.4/],
      ['I am concerned about the weight loss, so we will get a CT scan.', /^R63\.4/],
      ['Your fatigue and weight loss need a workup, so we will get labs.', /^R63\.4/],
      ['For the weight loss, we will check your thyroid.', /^R63\.4/],
      ['Your weight gain is from the prednisone, so we will taper it.', /^R63\.5/],
      ['The aspirin is to prevent your heart attack from happening again.', /^I21/],
    ]);
  });

  it('gives no side for "all right", "right now", "that\'s right" or "left to itself", and keeps a side said', () => {
    const code = (said: string) => codesOf(`${OPENING}${PLAN}[doctor] ${said}`);
    expect(code('All right, so your knee osteoarthritis is acting up, take the ibuprofen.')).toEqual(['M17.9']);
    expect(code('Right now your knee osteoarthritis is the main problem.')).toEqual(['M17.9']);
    expect(code("That's right, the knee osteoarthritis is worse.")).toEqual(['M17.9']);
    expect(code('Right, you have carpal tunnel syndrome.')).toEqual(['G56.00']);
    expect(code('Left to itself your knee osteoarthritis will get worse.')).toEqual(['M17.9']);
    expect(code('For your left knee osteoarthritis, we will do an injection.')).toEqual(['M17.12']);
    expect(code('You have carpal tunnel syndrome on the left.')).toEqual(['G56.02']);
    expect(code('This is right knee osteoarthritis, so we will do an injection.')).toEqual(['M17.11']);
  });
});

describe('a condition naming a risk, a test, a medicine or a plan, and one the plan heads off', () => {
  it('codes none', () => {
    expectNone([
      ['The statin lowers your stroke risk.', /^I63/],
      ['We want to bring down your heart attack risk.', /^I21/],
      ['Your breast cancer risk is average.', /^C50/],
      ['You need seizure precautions while we adjust the dose.', /^R56/],
      ['I will order a covid test before the procedure.', /^U07/],
      ['We will check a lupus antibody.', /^M32/],
      ['Here is an asthma action plan.', /^J45/],
      ['Follow a diabetic diet.', /^E11/],
      ['You can use a cough drop.', /^R05/],
      ['There is a new migraine medicine on the market.', /^G43/],
      ['We want to catch it before it becomes diabetes.', /^E11/],
      ['We will do this to head off a heart attack.', /^I21/],
      ['Your sugars are in the prediabetes range, and we want to keep you from becoming diabetic.', /^E11/],
      // Already right before, kept so.
      ['We will treat it now so it does not turn into pneumonia.', /^J18/],
      ['Long term, you are at risk for a stroke.', /^I63/],
      ['Your blood count is normal, so no anemia.', /^D64/],
      ['Everything came back normal, including the test for lupus.', /^M32/],
    ]);
  });

  it('codes the patient\'s own said beside them', () => {
    expectCoded([
      ['You have a high fracture risk because of your osteoporosis, so we will start alendronate.', /^M81/],
      ['Your asthma is not well controlled, so here is an asthma action plan.', /^J45/],
      ['Your sugars are in the prediabetes range, and we want to keep you from becoming diabetic.', /^R73/],
      // Not coded before: the risk's denial ran on through "with your".
      ['You are at higher risk of kidney disease with your diabetes.', /^E11/],
      ['Your covid test was positive, so stay home for five days.', /^U07/],
    ]);
  });
});

describe('consent and complications, seasons and a drug\'s uses', () => {
  it('codes none of a complication or risk listed, a season, what a drug can help with or a workup if it happens', () => {
    expectNone([
      ['Complications can include a blood clot or a pulmonary embolism.', /^I26/],
      ['Afterwards, look out for signs of infection like redness or fever.', /^R50/],
      ['The biggest risk is a stroke during the procedure.', /^I63/],
      ['It is cold and flu season, so wash your hands.', /^J1[01]/],
      ['An antidepressant can also help with chronic pain.', /^G89/],
      ['We will do a stroke workup in the emergency room if that happens.', /^I63/],
      ['I explained the risks of the injection, including needles and covid.', /^U07/],
      ['We reviewed the risks of the steroid in the covid setting.', /^U07/],
      // Already right before, kept so.
      ['The risks of the procedure include infection, bleeding and nerve damage.', /^(G58|T)/],
      ['Possible complications such as a pulmonary embolism are rare.', /^I26/],
      ['Rarely, you can get a DVT after surgery.', /^I82/],
      ['The surgery carries some risk of pneumonia.', /^J18/],
      ['You have flu-like symptoms, so rest and fluids.', /^J1[01]/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['The inhaler can help with the wheezing.', /^R06/],
      ['Physical therapy can help with your back pain.', /^M54/],
      ["It's flu season, and you do have the flu, so we will start Tamiflu.", /^J11/],
      ['Your stroke workup showed a small stroke, so we will start aspirin.', /^I63/],
      ['You had a complication of the surgery, a blood clot in the lung, a pulmonary embolism, so we will start apixaban.', /^I26/],
    ]);
  });
});

describe('more ways of saying a condition is not there, and the patient\'s questions', () => {
  it('codes none', () => {
    expectNone([
      ['You asked about sleep apnea, and your oxygen was fine overnight.', /^G47/],
      ['You read about fibromyalgia online.', /^M79/],
      ['You were wondering about thyroid problems.', /^E07/],
      ['You wanted to know about diabetes.', /^E11/],
      ['You brought up lupus, and your tests do not show it.', /^M32/],
      ["I wouldn't call it gout.", /^M10/],
      ["It wouldn't be diabetes with numbers like these.", /^E11/],
      ["You can't have gout with these labs.", /^M10/],
      ["This couldn't be a stroke.", /^I63/],
      ["It won't turn out to be cancer.", /^C80/],
      ['Nothing suggests a heart attack.', /^I21/],
      ['Nothing on the scan looks like cancer.', /^C80/],
      ['I see nothing to suggest appendicitis.', /^K35/],
      ["It's nothing serious like cancer.", /^C80/],
      ['We can cross off lupus.', /^M32/],
      ['We can take gout off the list.', /^M10/],
      ['You are too young for a stroke.', /^I63/],
      ['Hard to believe this is gout.', /^M10/],
      ['There is nothing to indicate heart failure.', /^I50/],
      // Already right before, kept so.
      ["I'm not going to call this pneumonia.", /^J18/],
      ['That is not what we see with multiple sclerosis.', /^G35/],
      ['Your symptoms do not fit with gout.', /^M10/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['You asked about your diabetes, and it is well controlled on the metformin.', /^E11/],
      ['Nothing is helping your migraines, so we will start topiramate.', /^G43/],
      ['You mentioned some chest pain, so we will get an EKG.', /^R07/],
      ["You can't keep taking ibuprofen with your chronic kidney disease.", /^N18/],
      ['Your blood tests showed lupus, so we will start hydroxychloroquine.', /^M32/],
      ["You have gout, and I wouldn't stop the allopurinol.", /^M10/],
    ]);
  });
});

describe('a result the plan waits on, and what a past operation treated', () => {
  it('codes none', () => {
    expectNone([
      ["If the x-ray shows pneumonia, we'll start antibiotics.", /^J18/],
      ["If the culture grows strep throat, we'll call you.", /^J02/],
      ["If your labs show anemia, we'll start iron.", /^D64/],
      ['If the biopsy confirms melanoma, you will see a surgeon.', /^C43/],
      ['If the stool test is positive for c diff, we will treat it.', /^A04/],
      ['If the MRI finds a herniated disc, we will refer you to a spine surgeon.', /^M51/],
      ['Once we confirm a urinary tract infection, we can pick the antibiotic.', /^N39/],
      ['You had a hysterectomy for fibroids in 2010.', /^D25/],
      ['You had your gallbladder removed for gallstones years ago.', /^K80/],
      ['You had surgery for a herniated disc ten years ago.', /^M51/],
      ['You had a thyroidectomy for thyroid cancer.', /^C73/],
      // Already right before, kept so.
      ['Should the ultrasound show a blood clot, we would start a blood thinner.', /^I82/],
      ['You had a mastectomy for breast cancer in 2015.', /^C50/],
      ['You had an appendectomy for appendicitis as a teenager.', /^K35/],
    ]);
  });

  it('codes a result read, a condition still treated or back, and the patient\'s own beside a warning', () => {
    expectCoded([
      ['The x-ray shows pneumonia, so we will start antibiotics.', /^J18/],
      ['You had a stent for coronary artery disease, and you still get chest pain, so we will increase the metoprolol.', /^I25/],
      ['If you have questions about your diabetes, call me.', /^E11/],
      ['Your x-ray shows pneumonia, and if the cough gets worse, call us.', /^J18/],
      ['You had surgery for your herniated disc last year, and the back pain is back, so we will get an MRI.', /^M51/],
      ['You had a lumpectomy for breast cancer last month and you are now on tamoxifen.', /^C50/],
    ]);
  });
});
