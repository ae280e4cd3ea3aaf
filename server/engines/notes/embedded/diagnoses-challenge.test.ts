/**
 * Issue 29 item 4 (precision): the second stop's challenge sets of 2 Dec. Each sentence is made up for a class
 * of talk a careful coder does not code from that sentence alone (none is taken from ACI-BENCH), said in a short visit after
 * "let's talk about my assessment and plan" beside a knee osteoarthritis the plan does assess; each wrongly coded before its
 * fix unless marked "already right before". The patient's own condition said beside the same words stays coded.
 */
import { describe, it } from 'vitest';
import { expectNone, expectCoded } from './challenge-visit';

describe('another person\'s condition', () => {
  it('codes none of a relative\'s, another person\'s, a pet\'s or the clinician\'s own', () => {
    expectNone([
      ['Your twin has type 1 diabetes, so we will check your sugar.', /^E10/],
      ['Your partner was diagnosed with covid yesterday.', /^U07/],
      ['Your coworker had shingles last month.', /^B02/],
      ['Your granddaughter has asthma too.', /^J45/],
      ['Your grandson was just diagnosed with autism.', /^F84/],
      ['Your stepfather had prostate cancer.', /^C61/],
      ['Your boyfriend has herpes, so we will talk about protection.', /^B00/],
      ['Your baby has an ear infection, you said.', /^H66/],
      ['Your nephew has epilepsy.', /^G40/],
      ['Everyone at work had the stomach flu.', /^A09/],
      ['Your dog has diabetes too.', /^E11/],
      ['Your fiance has asthma.', /^J45/],
      ['I get migraines too, so I know how bad they are.', /^G43/],
      ['I have asthma myself and I use the same inhaler.', /^J45/],
      ['My own mother had lupus.', /^M32/],
      // Already right before, kept so.
      ['Your mother had breast cancer, so we will start mammograms at 40.', /^C50/],
      ['Diabetes runs in your family, so we will check an A1c.', /^E11/],
      ["Your dad's colon cancer means you need a colonoscopy every five years.", /^C18/],
      ['Your husband has the flu right now.', /^J1[01]/],
    ]);
  });

  it('codes the patient\'s own condition said with a relative named after it or in a clause of its own', () => {
    expectCoded([
      ['You have type 2 diabetes like your mother, so we will start metformin.', /^E11/],
      ['You have high blood pressure, like your dad, so we will start lisinopril 10 mg daily.', /^I10/],
      ['Your asthma, which runs in your family, is well controlled on the albuterol.', /^J45/],
      ['Your mom had a stroke, and you have high blood pressure, so we will start lisinopril 10 mg daily.', /^I10/],
    ]);
  });
});

describe('a condition of the past or one gone', () => {
  it('codes none said with when it was and a past verb, removed, had in a pregnancy, cured, outgrown or gone', () => {
    expectNone([
      ['You had a kidney stone back in 2015.', /^N20/],
      ['You had breast cancer ten years ago and you are in remission.', /^C50/],
      ['Your hepatitis c was cured with treatment.', /^B18/],
      ['You used to have asthma as a child but you outgrew it.', /^J45/],
      ['You had gestational diabetes with your last pregnancy.', /^(E11|O24)/],
      ['Your shingles healed up nicely.', /^B02/],
      ['You were treated for a urinary tract infection last month and that cleared up.', /^N39/],
      ['You had cellulitis of your leg last year.', /^L03/],
      ['You were anemic during your pregnancy.', /^D64/],
      ['You had thyroid cancer and had your thyroid removed in 2012.', /^C73/],
      ['You had colon polyps removed five years ago and the last colonoscopy was clean.', /^K63/],
      ['You had a bout of pancreatitis in 2018.', /^K85/],
      ['You were diagnosed with a stomach ulcer years ago, treated, and it has not been a problem.', /^K27/],
      ['The nausea stopped after a day.', /^R11/],
      ['The fever broke yesterday.', /^R50/],
      ['Your numbness is all gone.', /^R20/],
      ['Your headaches have stopped since the new glasses.', /^R51/],
      ['Your rash is all better.', /^L30/],
      ['The diarrhea settled down after two days.', /^R19/],
      ['The sore throat got better on its own.', /^J02/],
      ['Your constipation is no longer a problem.', /^K59/],
      ['The vomiting stopped last night.', /^R11/],
      // Already right before, kept so.
      ['Your atrial fibrillation went away after the ablation.', /^I48/],
      ['The itching went away with the cream.', /^L29/],
    ]);
  });

  it('codes one still there, back, had until now, or a chronic one said with when it was found', () => {
    expectCoded([
      ['You were diagnosed with diabetes in 2015, and your A1c is 8 today, so we will increase the metformin.', /^E11/],
      ['Your colonoscopy three years ago showed you had some mild diverticulosis, so eat more fiber.', /^K57/],
      ["You had shingles last year and now it's back on your chest, so we will start valacyclovir.", /^B02/],
      ['You had high blood pressure in 2019 and it is still high, so we will start lisinopril 10 mg daily.', /^I10/],
      ['The headaches stopped you from working this week, so we will start sumatriptan.', /^R51/],
      ['We will have the skin cancer removed next week.', /^C44/],
      ['Your rash is better but still there, keep using the cream.', /^L30/],
      ['You had a kidney stone and it is still there on the CT, so we will refer you to urology.', /^N20/],
      // Not coded before: "had" read as a past pneumonia.
      ["You've had pneumonia for a week, so we will start azithromycin.", /^J18/],
    ]);
  });
});

describe('a differential, and what a test is for', () => {
  it('codes none of a differential, a possibility weighed or doubted, or what a test looks for', () => {
    expectNone([
      ['I doubt this is gout.', /^M10/],
      ['The differential includes pneumonia, bronchitis, or a viral infection.', /^(J18|J20|B34)/],
      ['Appendicitis is less likely since your pain is on the left.', /^K35/],
      ['Cancer is unlikely at your age.', /^C80/],
      ['Pneumonia is unlikely with a clear x-ray.', /^J18/],
      ['Other things on the list would be lupus or rheumatoid arthritis.', /^(M32|M06)/],
      ['Lyme disease is on my differential.', /^A69/],
      ['We need to think about multiple sclerosis, so we will get an MRI of the brain.', /^G35/],
      ['Less likely possibilities are a hernia or a kidney stone.', /^(K4|N20)/],
      ["Heart failure is something we'll want to exclude.", /^I50/],
      ['Diabetes would be on the list, but your sugar was normal.', /^E11/],
      ['Another possibility is carpal tunnel syndrome.', /^G56/],
      ["We'll test you for covid and the flu.", /^(U07|J1[01])/],
      ["We'll check you for diabetes with an A1c.", /^E11/],
      ['Your pap smear checks for cervical cancer.', /^C/],
      ['The bone density scan is for osteoporosis.', /^M81/],
      ["We'll get labs to assess for anemia.", /^D64/],
      ["We'll get a TSH to look into hypothyroidism as a cause of the fatigue.", /^E03/],
      ['The sleep study is to diagnose sleep apnea.', /^G47/],
      ['A dexa scan screens for osteoporosis.', /^M81/],
      ["We'll get a chest x-ray to see about pneumonia.", /^J18/],
      ['The blood work is to screen you for hepatitis c and hiv.', /^(B18|B20)/],
      ['The stool test is for colon cancer.', /^C18/],
      // Already right before, kept so.
      ["It could be a stress fracture, so we'll get an x-ray to rule it out.", /^(M84|S)/],
      ["We want to make sure this isn't appendicitis.", /^K35/],
      ['An echo will show us whether there is any heart failure.', /^I50/],
    ]);
  });

  it('codes the diagnosis made, treated or found by a test', () => {
    expectCoded([
      ['We will treat you for pneumonia with azithromycin.', /^J18/],
      ['We will consider surgery for your carpal tunnel syndrome.', /^G56/],
      ['We will look into your fatigue with some labs.', /^R53/],
      ['We will check your diabetes with an A1c today.', /^E11/],
      ['You tested positive for strep throat, so we will start amoxicillin.', /^J02/],
      ['Your sleep study showed sleep apnea, so we will start CPAP.', /^G47/],
      ['The most likely diagnosis is a urinary tract infection, so we will start nitrofurantoin.', /^N39/],
    ]);
  });
});

describe('a side effect, a cause, a name and a worry', () => {
  it('codes none of a drug\'s side effect or risk said of the condition in general', () => {
    expectNone([
      ['Metformin is known to cause diarrhea.', /^R19/],
      ['Statins are associated with muscle aches.', /^M79/],
      ['Lisinopril is linked to a dry cough in some people.', /^R05/],
      ['Long-term use of a PPI is associated with osteoporosis.', /^M81/],
      ['Nausea is a common side effect.', /^R11/],
      ['Diarrhea is the main side effect of metformin.', /^R19/],
      ['Dizziness is something to watch out for with this medicine.', /^R42/],
      ['Constipation can happen with the iron pills.', /^K59/],
      ['Headaches are common the first week.', /^R51/],
      ['Weight gain is a side effect of this one.', /^R63/],
      ['Muscle pain is rare with this statin.', /^M79/],
      ['Low blood sugar is the main risk with insulin.', /^E16/],
      ['Prednisone over time thins your bones, which leads to osteoporosis.', /^M81/],
      ['A rash would mean you are allergic, so stop it.', /^L30/],
      // Already right before, kept so.
      ['This drug carries a small risk of pancreatitis.', /^K85/],
      ['Ibuprofen can be hard on your stomach and cause ulcers.', /^K2[5-8]/],
    ]);
  });

  it('codes none of what causes what in general, or what a place, a programme or a person is named for', () => {
    expectNone([
      ['Smoking is the number one cause of lung cancer.', /^C34/],
      ['Alcohol damages the liver and causes cirrhosis.', /^K74/],
      ['Obesity is linked to diabetes and sleep apnea.', /^(E66|E11|G47)/],
      ['Sugary drinks contribute to diabetes.', /^E11/],
      ['Sun exposure is what causes skin cancer.', /^C44/],
      ['Osteoporosis affects one in two women over 50.', /^M81/],
      ['HPV causes cervical cancer.', /^C/],
      ['Untreated sleep apnea causes high blood pressure.', /^(G47|I10)/],
      ['Shingles is caused by the chickenpox virus.', /^B02/],
      ['A stroke happens when blood flow to the brain is blocked.', /^I63/],
      ['Our clinic runs a diabetes prevention program.', /^E11/],
      ['The heart failure clinic will call you.', /^I50/],
      ['The cancer doctor down the hall is very good.', /^C80/],
      ['Keep a migraine diary.', /^G43/],
      ['There is a stroke support group on Tuesdays.', /^I63/],
      ['The asthma and allergy foundation has good information.', /^J45/],
      ['I did my residency on the stroke service.', /^I63/],
      // Already right before, kept so.
      ['Smoking raises the risk of heart disease.', /^I/],
      ['My wife works at the cancer center.', /^C80/],
    ]);
  });

  it('codes none of the patient\'s worry', () => {
    expectNone([
      ['You were worried about a heart attack, but your EKG is normal.', /^I21/],
      ["I know you're concerned about breast cancer, and the mammogram was normal.", /^C50/],
      ['You thought you had the flu, but this is a cold.', /^J1[01]/],
      ['You were scared it might be skin cancer, but it is a seborrheic keratosis.', /^C44/],
      ['You were concerned about appendicitis; the CT was normal.', /^K35/],
      ['Your fear was a stroke, and thankfully the scan was normal.', /^I63/],
      ['You came in worried about diabetes, but your A1c is normal.', /^E11/],
      // Already right before, kept so.
      ["I can reassure you this isn't a heart attack.", /^I21/],
      ['It is just a cyst, nothing to worry about, not cancer.', /^C80/],
    ]);
  });

  it('codes the patient\'s own side effect, a cause of it, a worry confirmed and the condition a clinician is concerned about', () => {
    expectCoded([
      ['Your diarrhea is a side effect of the metformin, so we will lower the dose.', /^R19/],
      ['You have sleep apnea, which raises your blood pressure.', /^G47/],
      ['Your nausea is common with this medicine, and it should pass.', /^R11/],
      ['The metformin causes your diarrhea, so we will switch to the extended release.', /^R19/],
      ['I know you are worried about your diabetes, so we will add glipizide to the metformin.', /^E11/],
      ['You were worried about diabetes, and your A1c is 7.2, so you do have diabetes.', /^E11/],
      ['I am concerned about your heart failure, so we will increase the lasix.', /^I50/],
      ['Your chest pain is associated with shortness of breath, so we will get a stress test.', /^R06/],
      ['Your heart failure doctor increased the lasix, and we will keep it there.', /^I50/],
      ['Depression is improving on the sertraline.', /^F32/],
      ['Heart failure is stable on the current doses.', /^I50/],
      ['You were scared it might be skin cancer, but it is a seborrheic keratosis.', /^L82/],
    ]);
  });
});
