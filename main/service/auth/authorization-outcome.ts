import type { ServiceErrorCode } from '../errors.js';
import { type RenderedPage, errorPage } from './authorization-page.js';
import type { DeviceCookie } from './known-devices.js';

/**
 * What the authorization endpoint answers: an HTML page, or a redirect to the client. A refusal
 * carries its `error` too, in the spec's shape, so the HTTP adapter can answer a caller that is not
 * a browser (no `text/html` in its Accept) with JSON instead of the page, and `retryAfterSeconds`
 * when it is a rate limit.
 */
export type AuthorizationOutcome =
  | { kind: 'page'; page: RenderedPage; csrfCookie?: string; error?: RefusalBody; retryAfterSeconds?: number }
  /** `deviceCookie`: the browser is known for this user from now on (known-devices.ts). */
  | { kind: 'redirect'; location: string; deviceCookie?: DeviceCookie };

export interface RefusalBody {
  error: ServiceErrorCode;
  message: string;
  status: number;
  cause: [];
}

export const refusal = (status: number, error: ServiceErrorCode, message: string): RefusalBody => ({ error, message, status, cause: [] });

/** An error page for the person, and the same refusal as data. */
export function failurePage(status: number, error: ServiceErrorCode, title: string, message: string): AuthorizationOutcome {
  return { kind: 'page', page: errorPage(status, title, message), error: refusal(status, error, message) };
}
