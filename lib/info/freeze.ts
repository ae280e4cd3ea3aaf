/**
 * Deep-freezes a value at module load. The info lists are shared by every request and every picker,
 * so an accidental in-place sort or push in one caller would otherwise leak into all later responses.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
