import { ServiceError, badRequest } from '../errors.js';

const MAX_INT64 = 9223372036854775807n;

/** SPEC 9: every stock update must send the `x-version` it read; missing is 400, malformed is 400. */
export function parseVersionHeader(raw: string | string[] | undefined): bigint {
  if (raw === undefined || raw === '' || (Array.isArray(raw) && raw.length === 0)) {
    throw badRequest('Missing X-Version header');
  }
  const value = Array.isArray(raw) ? raw[0]! : raw;
  if (Array.isArray(raw) && raw.length > 1) throw badRequest('Invalid X-Version header: sent more than once');
  const trimmed = value.trim();
  if (!/^[0-9]{1,19}$/.test(trimmed) || BigInt(trimmed) > MAX_INT64) {
    throw badRequest('Invalid X-Version header: expected a non-negative 64-bit integer');
  }
  return BigInt(trimmed);
}

export const versionMismatch = () => new ServiceError(409, 'conflict', 'Version mismatch');
