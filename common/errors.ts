/**
 * The one closed set of error codes an error as data can carry, shared by the main process and the
 * renderer. The renderer decides on codes, never on message text.
 */

/** Codes the desktop shell itself answers. */
export const ERROR_CODES = {
  badRequest: 'bad_request',
  forbiddenSender: 'forbidden_sender',
  unknownChannel: 'unknown_channel',
  unsupported: 'unsupported',
  notSignedIn: 'not_signed_in',
  sessionExpired: 'session_expired',
  signInAborted: 'sign_in_aborted',
  localOnly: 'local_only',
  offline: 'offline',
  busy: 'busy',
  internal: 'internal_error',
  notConfigured: 'not_configured',
  fileNotFound: 'file_not_found',
  signInFailed: 'sign_in_failed',
  keychainUnavailable: 'keychain_unavailable',
  pullFailed: 'pull_failed',
  fixtures: 'fixtures',
  remoteError: 'remote_error',
  unauthorized: 'unauthorized',
  forbiddenOrigin: 'forbidden_origin',
  notFound: 'not_found',
  tooLarge: 'payload_too_large',
  methodNotAllowed: 'method_not_allowed',
  unsupportedMediaType: 'unsupported_media_type',
  forbiddenUrl: 'forbidden_url',
  alreadyRunning: 'already_running',
  wrongHost: 'wrong_host',
} as const;
export type DesktopErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * Codes of the service's errors (`error` of SPEC 7's `{ error, message, status, cause }`): the
 * generic ones, the spec's own rows (U00002, B00001...), OAuth 2.0's (RFC 6749 section 5.2), the
 * HTTP framework's client errors, and `remote_error` for a remote marketplace's answer whose code
 * is not one of these.
 */
export const SERVICE_ERROR_CODES = [
  'bad_request',
  'validation_error',
  'invalid_parameter',
  'unauthorized',
  'invalid_token',
  'forbidden',
  'not_found',
  // A path that exists, asked with a method it does not take (405 with Allow).
  'method_not_allowed',
  'conflict',
  'idempotency_key_reused',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_attachment',
  'conversation_blocked',
  'body.invalid_official_store_id',
  'U00002',
  'B00001',
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'unsupported_grant_type',
  'access_denied',
  'server_error',
  'internal_error',
  'unavailable',
  'remote_error',
  'uri_too_long',
  'header_fields_too_large',
  'request_timeout',
  // SPEC has no rate-limit row: failed sign-ins past their limit (429 with Retry-After).
  'too_many_requests',
  // The real marketplace's per-application limits (MARKETPLACE.md), served by `npm run serve -- --rate-limit`.
  'local_rate_limited',
  // A replica's edit of a product whose stock is not read from the marketplace yet (issue 29).
  'stock_not_read',
] as const;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

export type ErrorCode = ServiceErrorCode | DesktopErrorCode;

const KNOWN = new Set<string>([...SERVICE_ERROR_CODES, ...Object.values(ERROR_CODES)]);
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && KNOWN.has(code);
export const isServiceErrorCode = (code: unknown): code is ServiceErrorCode =>
  typeof code === 'string' && (SERVICE_ERROR_CODES as readonly string[]).includes(code);
