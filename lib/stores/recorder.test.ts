import { beforeEach, describe, expect, it } from 'vitest';
import { useRecorderStore } from './recorder';

const store = () => useRecorderStore.getState();

describe('the live transcript when the connection drops', () => {
  beforeEach(() => store().reset('s1'));

  // A browser trial (2 Dec): the words being heard when the network went were left as a grey partial that no final
  // ever replaced, and the next line began as if they were never said.
  it('keeps the partial being heard as an unfinished line, and the next connection\'s lines after it', () => {
    store().transcript({ id: 't1', text: 'how are you', startMs: 0, endMs: 900, isFinal: true });
    store().transcript({ id: 'p', text: "you're taking lisinopril twenty", startMs: 11_900, endMs: 14_800, isFinal: false });
    store().connectionDropped();
    expect(store().partial).toBeNull();
    expect(store().lines.map((l) => [l.text, l.unfinished ?? false])).toEqual([
      ['how are you', false],
      ["you're taking lisinopril twenty", true],
    ]);
    store().transcript({ id: 't2', text: 'i am going to increase the lisinopril', startMs: 16_000, endMs: 20_100, isFinal: true });
    expect(store().lines.map((l) => l.text)).toEqual(['how are you', "you're taking lisinopril twenty", 'i am going to increase the lisinopril']);
  });

  it('adds nothing when no words were being heard', () => {
    store().transcript({ id: 't1', text: 'how are you', startMs: 0, endMs: 900, isFinal: true });
    store().transcript({ id: 'p', text: '  ', startMs: 1000, endMs: 1100, isFinal: false });
    store().connectionDropped();
    store().connectionDropped();
    expect(store().lines).toHaveLength(1);
    expect(store().partial).toBeNull();
  });
});
