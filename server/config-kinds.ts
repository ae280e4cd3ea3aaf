import { z } from 'zod';

/**
 * The kinds of value an environment variable holds (server/config.ts). Each kind's error message is the form
 * it expects, so a start-up failure can say `PORT must be an integer from 0 to 65535 (got "abc")`.
 */
function kind<T>(form: string, parse: (raw: string) => T | undefined) {
  return z.string().transform((raw, ctx) => {
    const value = parse(raw.trim());
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: form });
      return z.NEVER;
    }
    return value;
  });
}

export function int(min: number, max = Number.MAX_SAFE_INTEGER) {
  const form = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
  return kind(form, (s) => (/^-?\d+$/.test(s) && Number(s) >= min && Number(s) <= max ? Number(s) : undefined));
}

/** A number of seconds that may have a fraction. */
export function positiveNumber() {
  return kind('a number > 0', (s) => (/^\d+(\.\d+)?$/.test(s) && Number(s) > 0 ? Number(s) : undefined));
}

export function bool() {
  return kind('true or false (also 1/0, yes/no, on/off)', (s) => {
    const v = s.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    return undefined;
  });
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A positive duration such as `30m`, `90s`, `1h` or `500ms`; a bare number is seconds. Parsed to ms. */
export function duration() {
  return kind('a positive duration such as 90s, 30m, 2h or 500ms (a bare number is seconds)', (s) => {
    const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(s);
    const ms = m ? Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS] : NaN;
    return ms > 0 ? ms : undefined;
  });
}

/** Comma-separated non-negative numbers, at least one. */
export function numberList() {
  return kind('comma-separated numbers ≥ 0, such as 10,30,60', (s) => {
    const parts = s.split(',').map((p) => p.trim());
    return parts.every((p) => /^\d+(\.\d+)?$/.test(p)) ? parts.map(Number) : undefined;
  });
}

/** One of a few words, compared case-insensitively; the value keeps the case written in the list. */
export function oneOf<const T extends string>(values: readonly T[]) {
  return kind(`one of ${values.join(', ')}`, (s) => values.find((v) => v.toLowerCase() === s.toLowerCase()));
}

export function httpUrl() {
  return kind('an http(s) URL such as https://docs.example.org', (s) => {
    try {
      const url = new URL(s);
      return url.protocol === 'http:' || url.protocol === 'https:' ? s : undefined;
    } catch {
      return undefined;
    }
  });
}

export function postgresUrl() {
  return kind('a postgres:// URL', (s) => (/^postgres(ql)?:\/\/\S+$/.test(s) ? s : undefined));
}

/** Any non-empty text (secrets, names, paths). */
export function text() {
  return z.string();
}

/** A list parsed by `parse`, whose thrown message (naming the bad entry) becomes the form. */
export function parsedBy<T>(parse: (raw: string) => T) {
  return z.string().transform((raw, ctx) => {
    try {
      return parse(raw);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
}

/** Variables whose value is not repeated in an error message. */
export const SECRET_NAME = /SECRET|_KEY|TOKEN|JWK|DATABASE_URL/;

/** Thrown at start-up; the message names every bad variable and the form it expects. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

export function describeIssues(error: z.ZodError, env: Record<string, string | undefined>): string[] {
  return error.issues.map((issue) => {
    const name = String(issue.path[0]);
    const raw = env[name];
    const got = raw === undefined || SECRET_NAME.test(name) ? '' : ` (got "${raw}")`;
    return `${name} must be ${issue.message}${got}`;
  });
}
