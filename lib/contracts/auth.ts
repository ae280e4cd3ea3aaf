import { z } from 'zod';
import { Specialty } from '@/lib/info';

const nonEmpty = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const RegisterRequest = z
  .object({
    partner_id: nonEmpty(128),
    partner_token: nonEmpty(16_384),
    provider_name: nonEmpty(255),
    provider_org_id: nonEmpty(255),
    provider_id: nonEmpty(255).optional(),
    provider_specialty: Specialty.optional(),
  })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const LoginRequest = z
  .object({
    partner_id: nonEmpty(128),
    partner_token: nonEmpty(16_384),
    provider_id: nonEmpty(255).optional(),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResponse = z.object({ service_token: z.string() }).meta({ id: 'LoginResponse' });
