/**
 * The held-out fold of ACI-BENCH train: every fifth encounter (by file order), never looked at while
 * tuning, so that a gain measured on the tune fold can be checked on dialogues it was not fitted to.
 */
export function isHeldOut(index: number): boolean {
  return index % 5 === 4;
}
