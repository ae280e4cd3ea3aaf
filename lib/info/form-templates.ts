/**
 * Embedded Form templates: structured precharting forms a partner attaches to a note section in the
 * session context (`precharted_content: [{type: "structured", template_id, values?}]`). The service
 * fills the values it hears in the conversation and returns them in `section_structured_values`.
 *
 * Item wording follows the published instruments (PHQ-2/PHQ-9 and AUDIT-C are free to reproduce; the
 * fall screen is the CDC STEADI "three key questions") because a reworded item is no longer the
 * validated screen and its score would not count for quality reporting.
 */
import { deepFreeze } from './freeze';
import type { FieldTypeCode, LoincSectionCode } from './lists';

export interface FormField {
  /** Stable within its template; values come back keyed by it. */
  id: string;
  label: string;
  type: FieldTypeCode;
  /** Present exactly for radio and multi_select. */
  options?: readonly string[];
}

export interface FormTemplate {
  template_id: string;
  name: string;
  /** The note section the form belongs to by default. */
  loinc: LoincSectionCode;
  fields: readonly FormField[];
}

const PHQ_FREQUENCY = ['Not at all', 'Several days', 'More than half the days', 'Nearly every day'] as const;
const YES_NO = ['Yes', 'No'] as const;
const ZERO_TO_TEN = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'] as const;

const PHQ_ITEMS = [
  { id: 'interest', label: 'Little interest or pleasure in doing things' },
  { id: 'depressed', label: 'Feeling down, depressed, or hopeless' },
  { id: 'sleep', label: 'Trouble falling or staying asleep, or sleeping too much' },
  { id: 'energy', label: 'Feeling tired or having little energy' },
  { id: 'appetite', label: 'Poor appetite or overeating' },
  {
    id: 'self_worth',
    label: 'Feeling bad about yourself - or that you are a failure or have let yourself or your family down',
  },
  {
    id: 'concentration',
    label: 'Trouble concentrating on things, such as reading the newspaper or watching television',
  },
  {
    id: 'psychomotor',
    label:
      'Moving or speaking so slowly that other people could have noticed? Or the opposite - being so fidgety or ' +
      'restless that you have been moving around a lot more than usual',
  },
  { id: 'self_harm', label: 'Thoughts that you would be better off dead or of hurting yourself in some way' },
] as const;

function phqItems(count: number): FormField[] {
  return PHQ_ITEMS.slice(0, count).map((item) => ({
    id: item.id,
    label: `Over the last 2 weeks, how often have you been bothered by: ${item.label}`,
    type: 'radio',
    options: PHQ_FREQUENCY,
  }));
}

function rosSystem(id: string, label: string, symptoms: readonly string[]): FormField {
  // "Negative" first so a reviewed-and-negative system is one tap, which is most systems at most visits.
  return { id, label, type: 'multi_select', options: ['Negative', ...symptoms] };
}

export const FORM_TEMPLATES = deepFreeze([
  {
    template_id: 'phq-2',
    name: 'PHQ-2 depression screen',
    loinc: '10190-7',
    fields: [{ id: 'date_administered', label: 'Date administered', type: 'date' }, ...phqItems(2)],
  },
  {
    template_id: 'phq-9',
    name: 'PHQ-9 depression screen',
    loinc: '10190-7',
    fields: [
      { id: 'date_administered', label: 'Date administered', type: 'date' },
      ...phqItems(9),
      {
        id: 'difficulty',
        label:
          'If you checked off any problems, how difficult have these problems made it for you to do your work, ' +
          'take care of things at home, or get along with other people?',
        type: 'radio',
        options: ['Not difficult at all', 'Somewhat difficult', 'Very difficult', 'Extremely difficult'],
      },
    ],
  },
  {
    template_id: 'steadi-fall-risk',
    name: 'Fall risk screen (CDC STEADI key questions)',
    loinc: '47420-5',
    fields: [
      { id: 'fallen_past_year', label: 'Have you fallen in the past year?', type: 'radio', options: YES_NO },
      { id: 'falls_count', label: 'If yes, how many times?', type: 'text' },
      { id: 'fall_injury', label: 'Were you injured?', type: 'radio', options: YES_NO },
      { id: 'last_fall_date', label: 'Date of most recent fall', type: 'date' },
      {
        id: 'unsteady',
        label: 'Do you feel unsteady when standing or walking?',
        type: 'radio',
        options: YES_NO,
      },
      { id: 'worries_about_falling', label: 'Do you worry about falling?', type: 'radio', options: YES_NO },
      {
        id: 'mobility_aids',
        label: 'Mobility aids used',
        type: 'multi_select',
        options: ['None', 'Cane', 'Walker', 'Wheelchair', 'Scooter', 'Other'],
      },
    ],
  },
  {
    template_id: 'tobacco-use',
    name: 'Tobacco use screen',
    loinc: '29762-2',
    fields: [
      {
        id: 'smoking_status',
        label: 'Smoking status',
        type: 'radio',
        // The ONC/CDC smoking-status categories, so the answer maps to the standard value set.
        options: [
          'Current every day smoker',
          'Current some day smoker',
          'Former smoker',
          'Never smoker',
          'Smoker, current status unknown',
          'Unknown if ever smoked',
        ],
      },
      {
        id: 'products',
        label: 'Tobacco and nicotine products used',
        type: 'multi_select',
        options: [
          'Cigarettes',
          'Cigars or cigarillos',
          'Pipe',
          'Smokeless tobacco (chew, snuff, snus)',
          'E-cigarettes or vaping',
          'Hookah',
          'Nicotine pouches',
        ],
      },
      { id: 'packs_per_day', label: 'Packs per day', type: 'text' },
      { id: 'years_smoked', label: 'Years smoked', type: 'text' },
      { id: 'quit_date', label: 'Quit date', type: 'date' },
      { id: 'advised_to_quit', label: 'Advised to quit this visit', type: 'radio', options: YES_NO },
      {
        id: 'ready_to_quit',
        label: 'Ready to quit in the next 30 days',
        type: 'radio',
        options: ['Yes', 'No', 'Unsure'],
      },
      {
        id: 'cessation_support',
        label: 'Cessation support offered',
        type: 'multi_select',
        options: [
          'Counseling',
          'Nicotine replacement therapy',
          'Varenicline',
          'Bupropion',
          'Quitline referral',
          'Declined',
        ],
      },
    ],
  },
  {
    template_id: 'audit-c',
    name: 'AUDIT-C alcohol use screen',
    loinc: '29762-2',
    fields: [
      {
        id: 'drink_frequency',
        label: 'How often do you have a drink containing alcohol?',
        type: 'radio',
        options: ['Never', 'Monthly or less', '2-4 times a month', '2-3 times a week', '4 or more times a week'],
      },
      {
        id: 'typical_quantity',
        label: 'How many standard drinks containing alcohol do you have on a typical day?',
        type: 'radio',
        options: ['1 or 2', '3 or 4', '5 or 6', '7 to 9', '10 or more'],
      },
      {
        id: 'binge_frequency',
        label: 'How often do you have six or more drinks on one occasion?',
        type: 'radio',
        options: ['Never', 'Less than monthly', 'Monthly', 'Weekly', 'Daily or almost daily'],
      },
    ],
  },
  {
    template_id: 'ros-14-system',
    name: 'Review of systems (14 systems)',
    loinc: '10187-3',
    // The 14 organ systems CMS documentation guidelines recognise for a complete ROS.
    fields: [
      rosSystem('constitutional', 'Constitutional', [
        'Fever',
        'Chills',
        'Night sweats',
        'Fatigue',
        'Unintentional weight loss',
        'Weight gain',
        'Decreased appetite',
      ]),
      rosSystem('eyes', 'Eyes', ['Blurred vision', 'Double vision', 'Eye pain', 'Eye redness', 'Eye discharge']),
      rosSystem('ent', 'Ears, nose, mouth and throat', [
        'Hearing loss',
        'Ear pain',
        'Tinnitus',
        'Nasal congestion',
        'Nosebleeds',
        'Sore throat',
        'Hoarseness',
        'Mouth sores',
      ]),
      rosSystem('cardiovascular', 'Cardiovascular', [
        'Chest pain',
        'Palpitations',
        'Leg swelling',
        'Orthopnea',
        'Claudication',
        'Syncope',
      ]),
      rosSystem('respiratory', 'Respiratory', [
        'Cough',
        'Shortness of breath',
        'Wheezing',
        'Sputum production',
        'Coughing up blood',
      ]),
      rosSystem('gastrointestinal', 'Gastrointestinal', [
        'Nausea',
        'Vomiting',
        'Abdominal pain',
        'Diarrhea',
        'Constipation',
        'Heartburn',
        'Difficulty swallowing',
        'Blood in stool',
        'Black stools',
      ]),
      rosSystem('genitourinary', 'Genitourinary', [
        'Painful urination',
        'Urinary frequency',
        'Urinary urgency',
        'Blood in urine',
        'Incontinence',
        'Flank pain',
        'Genital discharge',
      ]),
      rosSystem('musculoskeletal', 'Musculoskeletal', [
        'Joint pain',
        'Joint swelling',
        'Back pain',
        'Muscle pain',
        'Stiffness',
      ]),
      rosSystem('integumentary', 'Skin and breast', [
        'Rash',
        'Itching',
        'New or changing skin lesion',
        'Wound',
        'Hair loss',
        'Breast lump',
      ]),
      rosSystem('neurological', 'Neurological', [
        'Headache',
        'Dizziness',
        'Numbness',
        'Tingling',
        'Weakness',
        'Tremor',
        'Seizures',
        'Memory problems',
      ]),
      rosSystem('psychiatric', 'Psychiatric', [
        'Depressed mood',
        'Anxiety',
        'Sleep disturbance',
        'Suicidal thoughts',
        'Substance use concerns',
      ]),
      rosSystem('endocrine', 'Endocrine', [
        'Heat intolerance',
        'Cold intolerance',
        'Excessive thirst',
        'Excessive urination',
        'Excessive hunger',
      ]),
      rosSystem('hematologic_lymphatic', 'Hematologic and lymphatic', [
        'Easy bruising',
        'Prolonged bleeding',
        'Swollen glands',
      ]),
      rosSystem('allergic_immunologic', 'Allergic and immunologic', [
        'Seasonal allergies',
        'Hives',
        'Frequent infections',
      ]),
      { id: 'comments', label: 'Additional findings', type: 'text' },
    ],
  },
  {
    template_id: 'pain-assessment',
    name: 'Pain assessment',
    loinc: '10164-2',
    fields: [
      { id: 'pain_present', label: 'Pain present', type: 'radio', options: YES_NO },
      { id: 'location', label: 'Location', type: 'text' },
      { id: 'onset_date', label: 'Onset date', type: 'date' },
      { id: 'intensity_now', label: 'Current intensity (0 = no pain, 10 = worst imaginable)', type: 'radio', options: ZERO_TO_TEN },
      { id: 'intensity_worst', label: 'Worst intensity in the past 24 hours (0-10)', type: 'radio', options: ZERO_TO_TEN },
      {
        id: 'quality',
        label: 'Quality',
        type: 'multi_select',
        options: ['Aching', 'Burning', 'Cramping', 'Dull', 'Pressure', 'Sharp', 'Shooting', 'Stabbing', 'Throbbing', 'Tingling'],
      },
      { id: 'pattern', label: 'Pattern', type: 'radio', options: ['Constant', 'Intermittent'] },
      { id: 'radiation', label: 'Radiation', type: 'text' },
      { id: 'aggravating_factors', label: 'Aggravating factors', type: 'text' },
      { id: 'relieving_factors', label: 'Relieving factors', type: 'text' },
      {
        id: 'interference',
        label: 'Interference with daily activities',
        type: 'radio',
        options: ['None', 'Mild', 'Moderate', 'Severe'],
      },
    ],
  },
] as const satisfies readonly FormTemplate[]);

export type TemplateId = (typeof FORM_TEMPLATES)[number]['template_id'];
export const FORM_TEMPLATE_IDS: readonly TemplateId[] = deepFreeze(FORM_TEMPLATES.map((t) => t.template_id));

export function getFormTemplate(templateId: string): FormTemplate | undefined {
  return FORM_TEMPLATES.find((t) => t.template_id === templateId);
}
