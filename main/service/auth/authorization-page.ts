import { randomBytes } from 'node:crypto';
import { MAX_PASSWORD_LENGTH } from './passwords.js';

/**
 * The authorization (consent) page and its error page: plain HTML, every interpolated value
 * escaped, no script and no external resource. The one inline style is allowed by a per-response
 * CSP nonce; `form-action` admits this server and the validated redirect origin (browsers apply
 * it to the redirect that follows the form post).
 */

/** Longest nickname or id the form takes (nicknames are far shorter). */
export const MAX_USERNAME_LENGTH = 256;

export interface RenderedPage {
  status: number;
  html: string;
  headers: Record<string, string>;
}

export interface ConsentView {
  appName: string;
  redirectUri: string;
  csrf: string;
  /** The authorization request, sealed (sign-in-form.ts): the server keeps nothing per page. */
  sealed: string;
  /** A problem with the previous submission (wrong user or password...), shown above the form. */
  problem?: string | undefined;
  username?: string | undefined;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}.problem{color:#a00}label{display:block;margin:1rem 0 .3rem}input[type=text],input[type=password]{width:100%;padding:.4rem;font:inherit}
.actions{margin-top:1.2rem;display:flex;gap:.8rem}button{font:inherit;padding:.4rem 1.2rem}small{color:#666}`;

function headers(nonce: string, formActionOrigin?: string): Record<string, string> {
  const formAction = formActionOrigin ? `'self' ${formActionOrigin}` : "'none'";
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

function layout(nonce: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body>${body}</body></html>
`;
}

export function consentPage(view: ConsentView, status = 200): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const problem = view.problem ? `<p class="problem" role="alert">${escapeHtml(view.problem)}</p>` : '';
  // No list of users: the person types who they are, and proves it with the password.
  const body = `<h1>Sign in to the marketplace</h1>
<p><strong>${escapeHtml(view.appName)}</strong> asks to read and change your marketplace data (stock, listings, messages).</p>
${problem}<form method="post" action="/authorization">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="request" value="${escapeHtml(view.sealed)}">
<label for="username">Nickname or user id</label>
<input type="text" id="username" name="username" autocomplete="username" maxlength="${MAX_USERNAME_LENGTH}" value="${escapeHtml(view.username ?? '')}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" maxlength="${MAX_PASSWORD_LENGTH}">
<div class="actions"><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>
<p><small>Only accounts with a password can sign in here. After your choice the browser returns to ${escapeHtml(new URL(view.redirectUri).origin)}.</small></p>`;
  return { status, html: layout(nonce, 'Sign in', body), headers: headers(nonce, new URL(view.redirectUri).origin) };
}

export function errorPage(status: number, title: string, message: string): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const body = `<h1>${escapeHtml(title)}</h1><p class="problem">${escapeHtml(message)}</p>
<p><small>Nothing was shared with the application. Close this window and start the sign-in again from the app.</small></p>`;
  return { status, html: layout(nonce, title, body), headers: headers(nonce) };
}
