import type { TranscriptLine } from '../types';

/** ACI-BENCH style dialogue ("[doctor] …\n[patient] …") as transcript lines; other tags are UNKNOWN. */
export function dialogueToTranscript(dialogue: string, idPrefix = 't'): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  let ms = 0;
  for (const raw of dialogue.split(/\n+/)) {
    const m = /^\s*\[([a-z_ ]+)\]\s*(.*)$/i.exec(raw);
    const tag = m?.[1].toLowerCase() ?? '';
    const text = (m ? m[2] : raw).trim();
    if (!text) continue;
    if (!m && lines.length) { lines[lines.length - 1].text += ' ' + text; continue; }
    const speaker = tag === 'doctor' ? 'CLINICIAN' : tag === 'patient' ? 'PATIENT' : 'UNKNOWN';
    const dur = Math.max(800, text.split(/\s+/).length * 350);
    lines.push({ transcriptId: `${idPrefix}${lines.length + 1}`, speaker, text, startMs: ms, endMs: ms + dur });
    ms += dur + 200;
  }
  return lines;
}
