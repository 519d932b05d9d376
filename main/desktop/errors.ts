import { ZodError } from 'zod';
import { type ErrorCode, ERROR_CODES } from '../../common/errors.js';
import type { ApiError } from '../../common/contract/contract.js';
import { FixtureError } from '../fixtures/load.js';
import { isServiceError } from '../service/errors.js';
import { KeychainUnavailableError, NotSignedInError, OAuthError, RefreshFailedError, SessionExpiredError, SignInAbortedError } from '../sync/auth/index.js';
import { RemoteError } from '../sync/client.js';
import { PullError } from '../sync/pull.js';

/** An error of the desktop shell with a stable code (the codes of ERROR_CODES, or a specific one). */
export class DesktopError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DesktopError';
  }
}

export const desktopErrors = {
  unsupported: (what: string) => new DesktopError(ERROR_CODES.unsupported, `${what} is not available in this window`, 501),
  localOnly: (what: string) =>
    new DesktopError(ERROR_CODES.localOnly, `${what} needs a marketplace: the app works on local data only (change it in Settings)`, 409),
  notSignedIn: () => new DesktopError(ERROR_CODES.notSignedIn, 'Sign in to the marketplace (or paste an access token and your user id) first', 409),
  notConfigured: (what: string) => new DesktopError(ERROR_CODES.notConfigured, `Set the marketplace ${what} in Settings first`, 409),
  busy: (what: string) => new DesktopError(ERROR_CODES.busy, `${what} is already in progress`, 409),
  offline: (what: string) => new DesktopError(ERROR_CODES.offline, `${what} needs a connection to the marketplace`, 503),
  fileNotFound: (id: string) => new DesktopError(ERROR_CODES.fileNotFound, `The file ${id} is no longer staged; add it again`, 404),
};

function zodSummary(e: ZodError): string {
  const first = e.issues[0];
  if (!first) return 'The request is not valid';
  const where = first.path.length > 0 ? first.path.map(String).join('.') : 'payload';
  return `${where}: ${first.message}`;
}

/**
 * The one mapping from anything thrown to an error value the renderer may see: a stable code and a
 * message written for people. Service errors keep the spec's `error` and message; anything
 * unexpected becomes `internal_error` with a generic message (the details go to the main process's
 * log through `log`). Never a stack, never a token.
 */
export function toApiError(e: unknown, log: (e: unknown) => void = (err) => console.error('stockroom:', err)): ApiError {
  if (isServiceError(e)) {
    return { code: e.error, message: e.message, status: e.status, ...(e.cause.length > 0 ? { cause: JSON.parse(JSON.stringify(e.cause)) as unknown[] } : {}) };
  }
  if (e instanceof DesktopError) return { code: e.code, message: e.message, ...(e.status !== undefined ? { status: e.status } : {}) };
  if (e instanceof ZodError) return { code: ERROR_CODES.badRequest, message: zodSummary(e), status: 400 };
  if (e instanceof NotSignedInError) return { code: ERROR_CODES.notSignedIn, message: 'Not signed in to the marketplace', status: 401 };
  if (e instanceof SessionExpiredError) return { code: ERROR_CODES.sessionExpired, message: e.message, status: 401 };
  if (e instanceof SignInAbortedError) return { code: ERROR_CODES.signInAborted, message: e.message, status: 409 };
  if (e instanceof OAuthError)
    return { code: ERROR_CODES.signInFailed, message: `The marketplace refused the sign-in (${e.message.slice(0, 300)})`, status: 400 };
  if (e instanceof RefreshFailedError) return { code: ERROR_CODES.offline, message: e.message, status: 503 };
  if (e instanceof KeychainUnavailableError) return { code: ERROR_CODES.keychainUnavailable, message: e.message, status: 500 };
  if (e instanceof RemoteError) {
    return e.kind === 'offline'
      ? { code: ERROR_CODES.offline, message: e.message, status: 503 }
      : { code: ERROR_CODES.remoteError, message: e.message, status: 502 };
  }
  if (e instanceof PullError)
    return e.offline ? { code: ERROR_CODES.offline, message: e.message, status: 503 } : { code: ERROR_CODES.pullFailed, message: e.message, status: 502 };
  if (e instanceof FixtureError) return { code: ERROR_CODES.fixtures, message: e.message, status: 500 };
  log(e);
  return { code: ERROR_CODES.internal, message: 'Something went wrong in the app; the details are in its log', status: 500 };
}
