import type { z } from 'zod';
import { badRequest } from './errors.js';

/** Path and query parameters shared by the areas; each failure is a 400 in the spec's shape. */
export function parseUserId(raw: string): number {
  if (!/^[0-9]{1,15}$/.test(raw)) throw badRequest(`Invalid user id: '${raw}' must contain only digits`);
  return Number(raw);
}

export function parseUserProductId(raw: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) throw badRequest(`Invalid user product id: '${raw}'`);
  return raw;
}

export function parseItemId(raw: string): string {
  if (!/^[A-Za-z]{3}[0-9]{1,19}$/.test(raw)) throw badRequest(`Invalid item id: '${raw}'`);
  return raw;
}

/** A JSON body must be a plain object before any field rule applies. */
export function requireObject(body: unknown, message = 'A JSON body is required'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(message);
  return body as Record<string, unknown>;
}

/** Parses with a zod schema; failures become one 400 naming the first bad field, all issues in cause. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => {
    const path = i.path.length
      ? i.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')
      : what;
    return { code: 'invalid_field', message: `${path}: ${i.message}` };
  });
  throw badRequest(`Invalid ${what}: ${issues[0]!.message}`, issues);
}
