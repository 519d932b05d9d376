/** Desktop sign-in to a marketplace (OAuth 2.0 code + PKCE through the system browser). */
export { CredentialStore, KeychainUnavailableError, plainCipher, protectionOf, safeStorageCipher } from './credential-store.js';
export type { Cipher, LockedCredentials, Protection, SafeStorageLike, StoredCredentials } from './credential-store.js';
export { NotSignedInError, OAuthError, RefreshFailedError, SessionExpiredError, SignInAbortedError } from './errors.js';
export { signIn } from './loopback-sign-in.js';
export type { Credentials, SignInOptions } from './loopback-sign-in.js';
export { challengeFor, createPkce } from './pkce.js';
export { TokenManager, staticTokenProvider } from './token-manager.js';
export type { TokenManagerOptions, TokenProvider } from './token-manager.js';
