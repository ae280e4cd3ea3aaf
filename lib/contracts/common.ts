import { z } from 'zod';

export const ErrorBody = z.object({ code: z.number().int(), message: z.string() }).meta({ id: 'Error' });

export const Uuid = z.uuid({ message: 'must be a UUID' });

/** A string of at most `max` characters, with the limit in the message. */
export const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
/** A trimmed, non-empty string of at most `max` characters. */
export const nonEmpty = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
