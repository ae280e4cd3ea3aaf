import { describe, expect, it } from 'vitest';
import type { RecorderPhase } from '@/lib/stores/recorder';
import { signoffBadge, visitBadge, type SignoffFacts } from './visit-status';

const DRAFT: SignoffFacts = { locked: false, note_status: 'draft' };
const SIGNED: SignoffFacts = { locked: true, note_status: 'signed' };
const AMENDING: SignoffFacts = { locked: false, note_status: 'amended' };
const RESIGNED: SignoffFacts = { locked: true, note_status: 'amended' };

const label = (status: string, capturing: boolean, recorder: RecorderPhase, signoff?: SignoffFacts) => visitBadge({ status, capturing, recorder, signoff }).label;

describe('the visit header status (visitBadge)', () => {
  it("says what this page's recorder is doing while audio may be captured, not the session's 'Recording' alone", () => {
    expect(label('ready', true, 'recording')).toBe('Recording');
    // The status poll has not caught up with the first audio yet.
    expect(label('created', true, 'recording')).toBe('Recording');
    expect(label('ready', true, 'paused')).toBe('Paused — not recording');
    expect(label('ready', true, 'starting')).toBe('Starting the recording');
    expect(label('ready', true, 'finishing')).toBe('Ending the visit');
    expect(label('ready', true, 'cancelled')).toBe('Cancelled');
  });

  it('says recording is stopped after a reload (the session is still ready, the microphone is off), or on a recorder error', () => {
    expect(label('ready', true, 'idle')).toBe('Recording stopped');
    expect(label('ready', true, 'error')).toBe('Recording stopped');
    expect(visitBadge({ status: 'ready', capturing: true, recorder: 'idle', signoff: undefined }).tone).toBe('warning');
    // Audio still to send after the visit ended: nothing is being recorded.
    expect(label('running', true, 'idle')).toBe('Recording stopped');
  });

  it('says a visit nobody has recorded yet is not started, also when the microphone was refused', () => {
    expect(label('created', true, 'idle')).toBe('Not started');
    expect(label('created', true, 'error')).toBe('Not started');
  });

  it('says the note is being written once the audio has ended, before the status says so', () => {
    expect(label('ready', false, 'finished')).toBe('Processing');
    expect(label('created', false, 'idle')).toBe('Processing');
    expect(label('running', false, 'idle')).toBe('Processing');
  });

  it('says it is checking the sign-off while that loads, not Note ready (a signed visit opened showed "Note ready" first)', () => {
    expect(visitBadge({ status: 'completed', capturing: false, recorder: 'idle', signoff: undefined, signoffLoading: true })).toEqual({ label: 'Checking sign-off…', tone: 'neutral' });
    expect(visitBadge({ status: 'completed', capturing: false, recorder: 'idle', signoff: SIGNED, signoffLoading: true }).label).toBe('Signed');
  });

  it('says Note ready for an unsigned note (and when its sign-off state could not be loaded), and the sign-off bar\'s words once signed or amending', () => {
    expect(label('completed', false, 'idle')).toBe('Note ready');
    expect(label('completed', false, 'idle', DRAFT)).toBe('Note ready');
    expect(label('completed', false, 'finished', SIGNED)).toBe('Signed');
    expect(label('completed', false, 'idle', AMENDING)).toBe('Amending');
    expect(label('completed', false, 'idle', RESIGNED)).toBe('Amended and signed');
    for (const s of [SIGNED, AMENDING, RESIGNED]) expect(visitBadge({ status: 'completed', capturing: false, recorder: 'idle', signoff: s })).toEqual(signoffBadge(s));
    expect(visitBadge({ status: 'completed', capturing: false, recorder: 'idle', signoff: SIGNED }).tone).toBe('success');
  });

  it('never says Note ready beside a signed note, whatever the recorder holds', () => {
    const phases: RecorderPhase[] = ['idle', 'starting', 'recording', 'paused', 'finishing', 'finished', 'cancelled', 'error'];
    for (const p of phases) expect(label('completed', false, p, SIGNED)).toBe('Signed');
  });

  it('names the other endings as before', () => {
    expect(label('skipped', false, 'idle')).toBe('Skipped');
    expect(label('failed', false, 'idle')).toBe('Failed');
    expect(label('aborted', false, 'cancelled')).toBe('Cancelled');
    expect(visitBadge({ status: 'failed', capturing: false, recorder: 'idle', signoff: undefined }).tone).toBe('danger');
  });
});

describe('the sign-off bar status (signoffBadge)', () => {
  it('says Draft, Signed, Amending, or Amended and signed, and nothing before the state is read', () => {
    expect(signoffBadge(undefined)).toBeNull();
    expect(signoffBadge(DRAFT)).toEqual({ label: 'Draft', tone: 'warning' });
    expect(signoffBadge(SIGNED)).toEqual({ label: 'Signed', tone: 'success' });
    expect(signoffBadge(AMENDING)).toEqual({ label: 'Amending', tone: 'warning' });
    expect(signoffBadge(RESIGNED)).toEqual({ label: 'Amended and signed', tone: 'success' });
  });
});
