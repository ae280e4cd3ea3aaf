import type { SpeechFlag } from './types';

const UNCLEAR = /\[unclear\]|\bunclearspan\b/i;
const GREETING =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|welcome)\b|\b(?:nice to (?:meet|see) you|how are you(?: doing)?(?: today)?\?|how(?:'s| is) it going|thank you|thanks for coming|have a (?:good|great|nice) (?:day|one|weekend)|take care(?! of\b)|bye)\b|\b(?:i am|i'm|my name is) (?:dr\.?|doctor) [a-z]+/i;
// Addressed speech: the visit's "you" copied into the note instead of "the patient", and words said to someone
// in the room ("let me take a look", "hey Dragon, show me the x-ray"). The clinician's "I", "me" and "my" are
// the note's own voice, so the patient's first person cannot be told from them and is not flagged.
// "let me know" is an instruction reported in the note's voice ("I want her to … let me know if …"), not speech to the room.
const ADDRESSED =
  /\b(?:you|your|you're|you've|you'll|yourself|let me(?! know)|let's|dragon|show me the)\b|\?|^(?:(?:go ahead and )?(?:hop|squeeze|kick|lean|lie|sit|stand|bend|relax|breathe|open your|follow my|say ah|come with me)|go ahead and (?:finalize|order any))\b/i;

/**
 * Marks of transcript pasted rather than written: an "[unclear]" span printed into the note, a greeting or
 * small talk, and speech still addressed to the patient or someone in the room.
 */
export function speechFlags(sentence: string): SpeechFlag[] {
  const flags: SpeechFlag[] = [];
  if (UNCLEAR.test(sentence)) flags.push('unclear');
  if (GREETING.test(sentence)) flags.push('greeting');
  if (ADDRESSED.test(sentence)) flags.push('addressed-speech');
  return flags;
}
