/**
 * The 88-second follow-up visit issue 27 describes, written out as a dialogue (the recording itself is not
 * in the repository): hypertension, right knee pain, a penicillin allergy with a rash, lisinopril 10 → 20 mg,
 * metformin continued, acetaminophen as needed, a basic metabolic panel, follow-up in 4 weeks.
 */
export const ISSUE27_VISIT = `[doctor] Hi, I am doctor Patel, we are following up on your high blood pressure today.
[patient] Yes. I have been checking my blood pressure at home in the morning.
[doctor] How is your knee pain?
[patient] My right knee still hurts, I take acetaminophen five hundred milligrams every six hours as needed.
[doctor] Any allergies to medications?
[patient] I am allergic to penicillin, it gives me a rash.
[doctor] Are you still taking metformin for your diabetes?
[patient] Yes, every day.
[doctor] You are on lisinopril ten milligrams daily. Your blood pressure today is one fifty two over ninety four.
[doctor] I will increase the lisinopril to twenty milligrams daily, continue metformin, and check a basic metabolic panel. Follow up in four weeks.
[patient] Okay.`;
