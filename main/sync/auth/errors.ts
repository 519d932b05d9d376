/**
 * Errors of the desktop sign-in. None of them ever carries a token, a code or a verifier: messages
 * are written here or come from the server's `error_description` with every secret sent in the
 * request replaced by `[redacted]`.
 */

/** The server answered an OAuth error (`invalid_grant`, `invalid_client`, `access_denied`...). */
export class OAuthError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status: number,
  ) {
    super(`${code}${description ? `: ${description}` : ''}`);
    this.name = 'OAuthError';
  }
}

/**
 * The sign-in is over (the refresh token was refused, revoked, or the credentials were removed):
 * the person must sign in again. Show it; retrying does not help.
 */
export class SessionExpiredError extends Error {
  constructor(message = 'The marketplace session ended; sign in again') {
    super(message);
    this.name = 'SessionExpiredError';
  }
}

/** No credentials are stored for the profile (never signed in, or signed out). */
export class NotSignedInError extends Error {
  constructor(profile: string) {
    super(`Not signed in (profile ${profile})`);
    this.name = 'NotSignedInError';
  }
}

/** A refresh that could not be completed now (network, server error, timeout): try again later. */
export class RefreshFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefreshFailedError';
  }
}

/** The browser sign-in did not complete in time, or was cancelled. */
export class SignInAbortedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInAbortedError';
  }
}
