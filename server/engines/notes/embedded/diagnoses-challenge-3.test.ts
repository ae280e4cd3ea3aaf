/**
 * Issue 29 item 4 (precision): the third stop's challenge sets of 2 Dec, continued from diagnoses-challenge-2.test.ts, on
 * kinds of talk the first two did not cover. Each sentence is made up (none is taken from ACI-BENCH) and said in the short
 * knee visit of challenge-visit.ts, after "let's talk about my assessment and plan"; each was wrongly coded before its fix
 * unless marked "already right before". The patient's own condition said beside the same words stays coded.
 */
import { describe, it } from 'vitest';
import { expectNone, expectCoded } from './challenge-visit';

describe('the people the patient looks after or works with, the staff, and the clinician\'s own', () => {
  it('codes none of theirs', () => {
    expectNone([
      ['Your little one has had an ear infection all week.', /^H66/],
      ['Your youngest has pink eye.', /^H10/],
      ['Your teenager was just diagnosed with depression.', /^F32/],
      ['Your students all have the flu.', /^J1[01]/],
      ['Half your class is out with covid.', /^U07/],
      ['Your clients have a lot of anxiety.', /^F41/],
      ['Your caregiver has the flu.', /^J1[01]/],
      ['Your patients with covid are keeping you busy.', /^U07/],
      ['You work with kids who have the flu all the time.', /^J1[01]/],
      ['As a nurse on the oncology floor, you see a lot of cancer.', /^C80/],
      ['Our nurse is out with the flu.', /^J1[01]/],
      ['Half the staff has covid this week.', /^U07/],
      ["I've been dealing with gout myself.", /^M10/],
      ['I was diagnosed with diabetes last year too, so I get it.', /^E11/],
      ['The new system gives me a headache.', /^R51/],
      ['That gives me chills, in a good way.', /^R68/],
      // Already right before, kept so.
      ['Your cat has kidney disease, so I know you have been busy.', /^N18/],
      ["Your son's asthma has been acting up, so you've been up at night.", /^J45/],
      ['Caring for your husband with dementia must be stressful.', /^F03/],
      ['My partner has celiac disease, so I know the diet.', /^K90/],
    ]);
  });

  it('codes the patient\'s own said beside them, and one they passed on to the patient', () => {
    expectCoded([
      ['Your son has asthma, and you have asthma too, so we will refill your albuterol.', /^J45/],
      ['You work with kids, and you have the flu, so we will start Tamiflu.', /^J11/],
      ['My impression is that you have gout, so we will start colchicine.', /^M10/],
      ['In my opinion this is pneumonia, so we will start azithromycin.', /^J18/],
      ["I've got your results back, and you have diabetes, so we will start metformin.", /^E11/],
      ['I have a feeling this is gout, so we will start colchicine.', /^M10/],
      ['The nurse will teach you about your diabetes and the metformin.', /^E11/],
      ['As a nurse, you caught covid at work, so stay home for five days.', /^U07/],
      ['You care for your husband, and your own depression is worse, so we will increase the sertraline.', /^F32/],
      ['Your students gave you the flu, so we will start Tamiflu.', /^J11/],
      // A doctor-tagged line with no word marking the condition as the clinician's is read as the patient's: speaker tags
      // swap in ACI-BENCH and in live diarization (whose.ts).
      ['Sorry, my allergies are acting up.', /^J30/],
      ['I had plantar fasciitis last year and the stretches helped.', /^M72/],
      ['I have high blood pressure, and the lisinopril is not helping.', /^I10/],
      // Not coded before: someone else's, given to the patient.
      ['Your kids passed strep throat on to you, so we will start amoxicillin.', /^J02/],
      ['You caught the flu from your grandkids, so we will start Tamiflu.', /^J11/],
    ]);
  });
});

describe('another clinician\'s opinion or the records, contradicted, and what a referral is to find out', () => {
  it('codes none', () => {
    expectNone([
      ['The cardiologist thought it might be afib but the monitor was normal.', /^I48/],
      ["Your records say you had a heart murmur but I don't hear one.", /^R01/],
      ["Your last doctor wrote down fibromyalgia, but I'm not sure that fits.", /^M79/],
      ['The neurologist wondered about multiple sclerosis, but the MRI was clean.', /^G35/],
      ["The urgent care thought it was a kidney stone but the CT didn't show one.", /^N20/],
      ["Your old records mention gout, but you've never had an attack.", /^M10/],
      ['The dermatologist thought it might be psoriasis, but the biopsy showed eczema.', /^L40/],
      ['Your primary care thought you might have asthma, but the breathing test was normal.', /^J45/],
      ["The radiologist mentioned possible pneumonia but I think it's just atelectasis.", /^J18/],
      ["I'll have you see the kidney doctor to find out if there's kidney disease.", /^N18/],
      ['Since you work with covid patients, wear a mask.', /^U07/],
      // Already right before, kept so.
      ['The orthopedist was worried about a fracture but the x-ray was fine.', /^(S|M84)/],
      ['The hospital ruled out a heart attack.', /^I21/],
      ['The cardiologist did a monitor for atrial fibrillation and it was negative.', /^I48/],
      ['I will refer you to the sleep clinic to test for sleep apnea.', /^G47/],
      ['We screen everyone for depression at this visit.', /^F32/],
      ['The stress test will tell us if you have coronary artery disease.', /^I25/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['The cardiologist thought it was afib, and the monitor confirmed it, so we will start apixaban.', /^I48/],
      ['Your records say you have diabetes, and your A1c is 8, so we will increase the metformin.', /^E11/],
      ['The neurologist thought you had migraines, and I agree, so we will start topiramate.', /^G43/],
      ['Your last doctor diagnosed you with gout, but the allopurinol is working well.', /^M10/],
      ['You have asthma, but the breathing test was normal today, so keep the inhaler.', /^J45/],
      ['Your doctor thought you had pneumonia, but the x-ray was normal, so I think this is bronchitis.', /^J20/],
      ['The dermatologist thought it might be psoriasis, but the biopsy showed eczema.', /^L20/],
      ['Your chart says you have hypertension, but your pressure is fine on the lisinopril.', /^I10/],
      ['You said your knee pain is worse, but the x-ray was normal.', /^M25/],
    ]);
  });
});

describe('a case supposed or taught', () => {
  it('codes none of what would follow, a case imagined, or what a condition does over time', () => {
    expectNone([
      ['If you stop the blood thinner, you could have a stroke.', /^I63/],
      ['If this spreads, it becomes cellulitis.', /^L03/],
      ['If you had diabetes, your sugar would be higher.', /^E11/],
      ['Imagine you have a heart attack at home, call 911.', /^I21/],
      ["Say you get the flu, you'd take Tamiflu.", /^J1[01]/],
      ['In case of a seizure, turn her on her side.', /^R56/],
      ['Suppose this were a stroke, you would have weakness.', /^I63/],
      ["Had this been pneumonia, you'd have a fever.", /^R50/],
      ['In the event of chest pain, call 911.', /^R07/],
      ['The goal is to keep you out of heart failure.', /^I50/],
      ["Without the statin you'd be more likely to have a heart attack.", /^I21/],
      ['Left untreated, high blood pressure leads to heart failure.', /^I10/],
      ['Diabetes over many years can damage the kidneys.', /^E11/],
      ['A DVT can travel to the lungs and become a pulmonary embolism.', /^I(82|26)/],
      // Already right before, kept so.
      ['If your sugar goes too high you can get ketoacidosis.', /^E1[01]/],
      ["If you don't take the antibiotics, it could turn into sepsis.", /^A41/],
      ['Smoking puts you at risk for emphysema.', /^J43/],
      ['Without treatment, sleep apnea raises your chance of a heart attack.', /^I21/],
      ['Untreated strep can lead to rheumatic fever.', /^(J02|I00)/],
      ["Even if it were gout, the treatment would be the same.", /^M10/],
      ["If it were cancer, we'd see it on the scan.", /^C80/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['I would say you have gout, so we will start colchicine.', /^M10/],
      ["I'd say you have an ankle sprain, so ice it.", /^S93/],
      ['Your high blood pressure leads to headaches, so we will increase the lisinopril.', /^I10/],
      ['Your diabetes over many years has damaged your kidneys, so you have chronic kidney disease.', /^N18/],
      ['You have a DVT, and it can travel to the lungs, so we will start apixaban.', /^I82/],
      ['Your cellulitis could spread if you stop the antibiotics.', /^L03/],
      ['You have pneumonia, and if you stop the antibiotics, it could get worse.', /^J18/],
      ["Your diabetes is getting worse, and you'd be better off on insulin.", /^E11/],
    ]);
  });
});

describe('a condition of long ago, outgrown, cleared, or taken away by an operation', () => {
  it('codes none', () => {
    expectNone([
      ['Your gastritis from years ago has not bothered you.', /^K29/],
      ['You had depression after your divorce but that was a long time ago.', /^F32/],
      ['Your childhood asthma is long gone.', /^J45/],
      ['Your anemia from the pregnancy is long gone.', /^D64/],
      ['You had shingles years ago, so the vaccine still makes sense.', /^B02/],
      ['You had hepatitis b as a child but cleared it.', /^B18/],
      ['Your thyroid cancer was treated in 2005 and you have been cancer free.', /^C73/],
      ['You outgrew your eczema.', /^L20/],
      ['The anxiety you had in college is no longer an issue.', /^F41/],
      ['Back in 2010 you had a bout of diverticulitis.', /^K57/],
      ['You had carpal tunnel release on the left in 2018.', /^G56/],
      ['Your cataract surgery went well last year.', /^H26/],
      // Already right before, kept so.
      ['You had mono in college.', /^B27/],
      ['You had pneumonia twice as a child.', /^J18/],
      ['You had a stroke five years ago with no lasting effects.', /^I63/],
      ['You had a DVT after your knee surgery in 2010.', /^I82/],
      ["Your kidney stones haven't come back since 2015.", /^N20/],
    ]);
  });

  it('codes one back, still there, still being treated, or an operation still to come', () => {
    expectCoded([
      ['You had depression after your divorce, and it is back, so we will restart the sertraline.', /^F32/],
      ['Your asthma is long-standing and not well controlled, so we will add fluticasone.', /^J45/],
      ['You have diverticulosis on the colonoscopy, so eat more fiber.', /^K57/],
      ['You had diverticulitis last week and you still have pain, so we will continue the antibiotics.', /^K57/],
      ['Your thyroid cancer was treated in 2005 and it has come back, so we will refer you to oncology.', /^C73/],
      ['Your breast cancer is being treated with chemotherapy.', /^C50/],
      ['You have carpal tunnel syndrome, so we will schedule carpal tunnel release.', /^G56/],
      ['You have a cataract, so we will schedule cataract surgery.', /^H26/],
      ['You had a seizure yesterday, so we will get an EEG.', /^R56/],
      ['Your gout has bothered you all week, so we will start colchicine.', /^M10/],
      ['You had hepatitis b and it never cleared, so we will refer you to GI.', /^B18/],
      ['Your depression is in remission on the sertraline.', /^F32/],
      ["Your gout hasn't flared in five years, so keep taking the allopurinol.", /^M10/],
    ]);
  });
});

describe('idioms, products, scales and what a drug is kept on hand for', () => {
  it('codes none', () => {
    expectNone([
      ["That's a pain in the neck, I know.", /^M54/],
      ["Sorry for the wait, it's been a headache today with the computers.", /^R51/],
      ['It makes my blood boil when insurance denies it.', /^L02/],
      ['You can take Tylenol Cold and Flu.', /^J1[01]/],
      ["I'll send in the yeast infection cream for you to have on hand.", /^B37/],
      ['Take Tums for heartburn if it happens.', /^K21/],
      ["Imodium is good to have on hand for traveler's diarrhea.", /^R19/],
      ['We will do a sleep apnea home test.', /^G47/],
      ['We will do the stroke scale again.', /^I63/],
      ['We use a depression scale called the PHQ-9.', /^F32/],
      ['Your GAD-7 anxiety score was 2.', /^F41/],
      ['Your anxiety score was normal today.', /^F41/],
      ['Your PHQ-9 for depression was zero.', /^F32/],
      // Already right before, kept so.
      ["I know you're sick of waiting for the insurance.", /^R/],
      ['You must be heartbroken about your dog.', /^I5/],
      ["I've got a frog in my throat, excuse me.", /^J02/],
      ['Your depression screen was negative.', /^F32/],
      ['Use the cold and sinus medicine if you need it.', /^J0/],
      ['Take the acid reflux pill before breakfast.', /^K21/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['You have a pain in your neck from the whiplash, so we will do physical therapy.', /^M54/],
      ['You have a headache every morning, so we will check your blood pressure.', /^R51/],
      ["It's a tension headache, so take ibuprofen.", /^G44/],
      ['You have a boil on your leg, so we will drain it.', /^L02/],
      ['Continue the lisinopril, hypertension is controlled.', /^I10/],
      ['You have the flu, so take Tamiflu and Tylenol for the fever.', /^J11/],
      ['Take Tums for your heartburn, which is worse after meals.', /^K21/],
      ['Your heartburn comes and goes, so take omeprazole daily and Tums if it happens.', /^K21/],
      ['Your PHQ-9 score for depression was 18, so we will start sertraline.', /^F32/],
      ['Your anxiety score was 18, so we will start sertraline.', /^F41/],
      ['Your sleep apnea test showed severe sleep apnea, so we will start CPAP.', /^G47/],
      ['Use the eczema cream on your eczema twice a day.', /^L20/],
    ]);
  });
});

describe('a family said in passing, what may come one day, a comparison, a threshold, and where a disease is common', () => {
  it('codes none', () => {
    expectNone([
      ['Cancer runs on both sides of your family.', /^C80/],
      ['Two of your uncles had prostate cancer.', /^C61/],
      ['At some point you might need treatment for osteoporosis.', /^M81/],
      ['This is different from a heart attack.', /^I21/],
      ['Unlike a stroke, this will go away on its own.', /^I63/],
      ['Your headaches are different from migraines, so we will try physical therapy.', /^G43/],
      ['An A1c over 6.5 means diabetes.', /^E11/],
      ['A BMI over 30 is obesity.', /^E66/],
      ['A T-score below minus 2.5 is osteoporosis.', /^M81/],
      ['Diabetes is defined as an A1c of 6.5 or higher.', /^E11/],
      ['The cutoff for anemia is a hemoglobin of 12.', /^D64/],
      ["There's a lot of Lyme disease where you hike.", /^A69/],
      ["Tuberculosis is common in the country you're visiting.", /^A15/],
      ['Ticks in this area carry Lyme disease.', /^A69/],
      // Already right before, kept so.
      ["There's a lot of heart disease on your dad's side.", /^I25/],
      ['Everybody in your family has high blood pressure.', /^I10/],
      ["With your family's history of colon cancer, you need a colonoscopy.", /^C18/],
      ["You'll likely develop arthritis in that knee someday.", /^M1/],
      ['Down the road this could become diabetes.', /^E11/],
      ["It's not as serious as pneumonia.", /^J18/],
      ['A blood pressure over 130 is considered hypertension.', /^I10/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['Your A1c is 7.2, which means diabetes, so we will start metformin.', /^E11/],
      ['Your A1c is over 6.5, which means you have diabetes, so we will start metformin.', /^E11/],
      ['Your BMI is 35, which is obesity, so we talked about diet.', /^E66/],
      ['Your T-score is minus 2.8, which is osteoporosis, so we will start alendronate.', /^M81/],
      ['This looks more like gout than an infection, so we will start colchicine.', /^M10/],
      ['Cancer runs on your mother\'s side, and you have breast cancer, so we will refer you to oncology.', /^C50/],
      ['Your uncles had diabetes, and you have diabetes too, so we will start metformin.', /^E11/],
      ['Over time your prediabetes may progress to diabetes.', /^R73/],
      // Not coded before: read as explained by the migraines.
      ['Your headaches are different from migraines, so we will try physical therapy.', /^R51/],
      // "Ticks carry" now denies the first, and a negation read on through a list stops at "and you have".
      ['Ticks carry Lyme disease, and you have Lyme disease, so we will start doxycycline.', /^A69/],
    ]);
  });
});

describe('more ways of saying it is not there: short of it, clear of it, done with it', () => {
  it('codes none', () => {
    expectNone([
      ['This doesn\'t rise to the level of depression.', /^F32/],
      ['You are no longer anemic.', /^D64/],
      ['The x-ray is clear of pneumonia.', /^J18/],
      ['Far from a heart attack, this is heartburn.', /^I21/],
      ["I'd hold off on calling it COPD until we have breathing tests.", /^J44/],
      ["We've basically beaten the cancer.", /^C80/],
      // Already right before, kept so.
      ["You're in the clear for cancer.", /^C80/],
      ['You were never told you had diabetes.', /^E11/],
      ['It turned out not to be a stroke.', /^I63/],
      ["It wasn't a heart attack after all.", /^I21/],
      ["You don't meet the criteria for fibromyalgia.", /^M79/],
      ["It's too early to call it arthritis.", /^M19/],
      ["It's not quite diabetes yet.", /^E11/],
      ['You have been seizure free for two years.', /^R56/],
      ['The biopsy was benign, no cancer.', /^C80/],
      ["That's not gout, that's a bunion.", /^M10/],
      ['No more gout attacks since the allopurinol.', /^M10/],
    ]);
  });

  it('codes the patient\'s own said beside the same words', () => {
    expectCoded([
      ['Your depression has risen to the level of needing medicine, so we will start sertraline.', /^F32/],
      ['You meet the criteria for fibromyalgia, so we will start duloxetine.', /^M79/],
      ['You are still anemic, so continue the iron.', /^D64/],
      ['We will beat this cancer together.', /^C80/],
      ['Your diabetes is no longer controlled on the metformin, so we will add glipizide.', /^E11/],
      ['Far from a heart attack, this is heartburn.', /^K21/],
      ['You no longer have asthma attacks, but your asthma needs the controller.', /^J45/],
      ['You are not clear of the infection yet, you still have pneumonia, so we will continue the antibiotics.', /^J18/],
    ]);
  });
});
