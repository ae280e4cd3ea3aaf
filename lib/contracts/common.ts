import { z } from 'zod';

export const ErrorBody = z.object({ code: z.number().int(), message: z.string() }).meta({ id: 'Error' });

export const Uuid = z.uuid({ message: 'must be a UUID' });
