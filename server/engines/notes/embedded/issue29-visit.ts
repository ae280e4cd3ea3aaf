/**
 * The 88-second natural-voice follow-up visit of issues 27 and 29, written out as the recogniser heard it
 * (the recording is not in the repository): hypertension, right knee pain from osteoarthritis, a penicillin
 * allergy with a rash, lisinopril 10 → 20 mg, metformin 500 mg twice daily continued, acetaminophen as
 * needed, a basic metabolic panel, follow-up in 4 weeks. Issue 29 names nine codable facts of it; the
 * bench/faithfulness/issue27-visit.ts dialogue is the shorter text of the same visit.
 */
export const ISSUE29_VISIT = `[doctor] Good morning, I'm doctor Patel. We're following up on your high blood pressure and your diabetes today.
[patient] Yes. I've been checking my blood pressure at home in the morning, it's usually around one fifty.
[doctor] And how is your right knee?
[patient] It still hurts, mostly on the stairs. I take Tylenol five hundred milligrams every six hours as needed for the pain.
[doctor] Do you have any allergies to medications?
[patient] I'm allergic to penicillin, it gives me a rash.
[doctor] Are you still taking metformin five hundred milligrams twice a day?
[patient] Yes, twice a day with meals.
[doctor] You're on lisinopril ten milligrams daily. Your blood pressure today is one fifty two over ninety four.
[doctor] Your knee pain is from osteoarthritis of the right knee. You can keep taking acetaminophen as needed for the pain.
[doctor] For your blood pressure, I'll increase the lisinopril from ten to twenty milligrams daily. Continue metformin five hundred milligrams twice a day for your diabetes, and let's check a basic metabolic panel. Follow up in four weeks.
[patient] Okay, thank you.`;
