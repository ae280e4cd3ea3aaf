/** Calendar dates as the API accepts them (YYYY-MM-DD, real days only). */
import { z } from 'zod';

/** A real calendar date (2023-02-30 is refused), written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Today's date as YYYY-MM-DD, one day ahead of UTC so a birth date "today" east of UTC is accepted. */
function latestAcceptableDate(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

export const CalendarDate = z.string().refine(isCalendarDate, 'must be a valid date written YYYY-MM-DD');

export const BirthDate = CalendarDate.refine((v) => !isCalendarDate(v) || v <= latestAcceptableDate(), 'must not be in the future').refine(
  (v) => !isCalendarDate(v) || v >= '1850-01-01',
  'must be after 1850-01-01',
);
