/**
 * Plain-language lexicon for PATIENT_FRIENDLY rewrites (issue 29 item 8). Written for this project (no third-party
 * list copied): each entry replaces a clinical word or phrase by the everyday wording that public-domain plain-language
 * guidance recommends (U.S. federal Plain Language Guidelines; CDC "Everyday Words for Public Health Communication";
 * NIH "Clear & Simple"), checked by hand against the ACI-BENCH train notes' vocabulary. Licence: the project's own.
 * Longer phrases are listed before the shorter ones they contain. Drug names, numbers and units are never entries.
 */
export const PLAIN_LEXICON: Array<[string, string]> = [
  // Conditions
  ['type 2 diabetes mellitus', 'type 2 diabetes'], ['diabetes mellitus', 'diabetes'], ['essential hypertension', 'high blood pressure'],
  ['hypertension', 'high blood pressure'], ['hyperlipidemia', 'high cholesterol'], ['hypercholesterolemia', 'high cholesterol'],
  ['dyslipidemia', 'unhealthy cholesterol levels'], ['congestive heart failure', 'heart failure'], ['myocardial infarction', 'heart attack'],
  ['cerebrovascular accident', 'stroke'], ['atrial fibrillation', 'irregular heartbeat'], ['coronary artery disease', 'heart artery disease'],
  ['chronic obstructive pulmonary disease', 'long-term lung disease (COPD)'], ['gastroesophageal reflux disease', 'acid reflux'],
  ['gastroesophageal reflux', 'acid reflux'], ['urinary tract infection', 'bladder infection'], ['upper respiratory infection', 'head cold'],
  ['osteoarthritis', 'wear-and-tear arthritis'], ['rheumatoid arthritis', 'joint disease'], ['osteoporosis', 'thin bones'],
  ['nephrolithiasis', 'kidney stones'], ['cholelithiasis', 'gallstones'], ['hypothyroidism', 'low thyroid'], ['hyperthyroidism', 'high thyroid'],
  ['hypoglycemia', 'low blood sugar'], ['hyperglycemia', 'high blood sugar'], ['radiculopathy', 'pinched nerve'], ['neuropathy', 'nerve damage'],
  ['fracture', 'broken bone'], ['contusion', 'bruise'], ['laceration', 'cut'],
  ['meniscus', 'knee cartilage'], ['tendinitis', 'sore tendon'], ['bursitis', 'swollen joint sac'], ['exacerbation', 'flare-up'],
  ['inflammation', 'swelling'], ['lesion', 'sore spot'], ['benign', 'not cancer'], ['malignant', 'cancer'],
  ['obesity', 'high body weight'], ['insomnia', 'trouble sleeping'], ['anxiety', 'worry'], ['depression', 'low mood'],
  ['pharyngitis', 'sore throat'], ['sinusitis', 'sinus infection'], ['cellulitis', 'skin infection'],
  // Symptoms and findings
  ['shortness of breath', 'hard to breathe'], ['dyspnea on exertion', 'out of breath with activity'], ['dyspnea', 'hard to breathe'],
  ['dysphagia', 'trouble swallowing'], ['urticaria', 'hives'], ['vertigo', 'spinning dizziness'], ['paresthesia', 'tingling'],
  ['edema', 'swelling'], ['erythema', 'redness'], ['pruritus', 'itching'], ['syncope', 'fainting'], ['emesis', 'throwing up'],
  ['vomiting', 'throwing up'], ['nausea', 'upset stomach'], ['diarrhea', 'loose stools'], ['fatigue', 'tiredness'], ['malaise', 'feeling unwell'],
  ['tenderness', 'soreness'], ['tender', 'sore'], ['palpation', 'pressing'], ['effusion', 'fluid'],
  ['retaining fluid', 'holding on to water'], ['symptoms', 'problems'], ['symptom', 'problem'], ['acute', 'sudden'], ['chronic', 'long-term'],
  ['bilateral', 'both sides'], ['bilaterally', 'on both sides'], ['medial', 'inner'], ['lateral', 'outer'], ['anterior', 'front'], ['posterior', 'back'],
  ['abdominal', 'belly'], ['abdomen', 'belly'], ['cardiac', 'heart'], ['pulmonary', 'lung'], ['renal', 'kidney'], ['hepatic', 'liver'],
  ['elevated', 'high'], ['unremarkable', 'normal'], ['etiology', 'cause'], ['prognosis', 'outlook'], ['idiopathic', 'of unknown cause'],
  // Tests and care
  ['echocardiogram', 'heart ultrasound'], ['electrocardiogram', 'heart tracing (EKG)'], ['magnetic resonance imaging', 'MRI scan'],
  ['radiographic', 'x-ray'], ['radiographs', 'x-rays'], ['imaging', 'scans'], ['laboratory', 'lab'], ['blood work', 'blood tests'],
  ['hemoglobin a1c', 'A1c (3-month blood sugar test)'], ['referral', 'visit with a specialist'], ['specialist', 'expert doctor'],
  ['physical therapy', 'exercise therapy'], ['injection', 'shot'], ['immobilization', 'keeping still'], ['anti-inflammatory', 'swelling-reducing'],
  ['analgesic', 'pain medicine'], ['medication', 'medicine'], ['medications', 'medicines'], ['prescription', 'medicine order'],
  ['over-the-counter', 'store-bought'], ['temporarily', 'for a short time'],
  // Verbs and connectives
  ['discontinue', 'stop'], ['initiate', 'start'], ['commence', 'start'], ['administer', 'give'], ['utilize', 'use'], ['evaluate', 'check'],
  ['evaluation', 'check'], ['assess', 'check'], ['monitor', 'watch'], ['recommend', 'suggest'], ['recommendation', 'advice'],
  ['approximately', 'about'], ['additional', 'more'], ['additionally', 'also'], ['prior to', 'before'], ['subsequently', 'then'],
  ['currently', 'now'], ['certainly', ''], ['regarding', 'about'], ['in regards to', 'about'], ['with regard to', 'about'],
  ['sufficient', 'enough'], ['numerous', 'many'], ['demonstrate', 'show'], ['indicate', 'show'], ['experiencing', 'having'],
  ['significant', 'important'], ['physician', 'doctor'], ['patient portal', 'online patient account'],
  ['presents to the clinic today for the evaluation of', 'came in today for'], ['presents today for', 'came in today for'],
  ['with a past medical history significant for', 'who has'], ['with past medical history significant for', 'who has'],
  ['denies', 'does not have'], ['endorses', 'reports'], ['complains of', 'has'], ['negative for', 'no sign of'],
  ['regular rate and rhythm', 'a normal heartbeat'], ['clear to auscultation bilaterally', 'clear when listened to'], ['auscultation', 'listening'],
  ['afebrile', 'without fever'], ['febrile', 'with a fever'], ['arthralgia', 'joint pain'], ['myalgia', 'muscle pain'], ['cephalgia', 'headache'],
  ['hematuria', 'blood in the urine'], ['dysuria', 'pain when passing urine'], ['tachycardia', 'fast heartbeat'], ['bradycardia', 'slow heartbeat'],
  ['ambulate', 'walk'], ['ambulating', 'walking'], ['strenuous', 'hard'], ['lumbar', 'low back'], ['cervical', 'neck'],
  ['discussion', 'talk'], ['discussed', 'talked about'], ['examination', 'exam'], ['reviewing', 'looking at'], ['findings', 'results'],
  ['appointment', 'visit'], ['prescribe', 'order'], ['treatment', 'care'], ['consistent with', 'like'], ['secondary to', 'from'],
  ['difficulty', 'trouble'], ['occasionally', 'sometimes'], ['immediately', 'right away'], ['necessary', 'needed'], ['increase', 'raise'],
  ['decrease', 'lower'], ['diagnosis', 'what is wrong'], ['medical', ''], ['activity', 'moving around'], ['activities', 'things you do'],
  ['understands and agrees with the recommended medical treatment plan', 'agrees with the plan'],
];
