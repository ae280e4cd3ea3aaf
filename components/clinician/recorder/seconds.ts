/** "12.3 s": an amount of audio, to the tenth of a second. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
