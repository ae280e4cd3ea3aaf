/** Polls fn until it returns a value, failing with `what` once limitMs has passed. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, limitMs = 180_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
