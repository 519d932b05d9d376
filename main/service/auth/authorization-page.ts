import { randomBytes } from 'node:crypto';

/**
 * The authorization (consent) page and its error page: plain HTML, every interpolated value
 * escaped, no script and no external resource. The one inline style is allowed by a per-response
 * CSP nonce; `form-action` admits this server and the validated redirect origin (browsers apply
 * it to the redirect that follows the form post).
 */

export interface RenderedPage {
  status: number;
  html: string;
  headers: Record<string, string>;
}

export interface ConsentView {
  appName: string;
  redirectUri: string;
  users: { id: number; nickname: string }[];
  csrf: string;
  /** A problem with the previous submission (unknown user...), shown above the form. */
  problem?: string | undefined;
  username?: string | undefined;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}.problem{color:#a00}label{display:block;margin:1rem 0 .3rem}input[type=text]{width:100%;padding:.4rem;font:inherit}
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
  const options = view.users.map((u) => `<option value="${escapeHtml(u.nickname)}">${escapeHtml(`${u.nickname} (${u.id})`)}</option>`).join('');
  const problem = view.problem ? `<p class="problem" role="alert">${escapeHtml(view.problem)}</p>` : '';
  const body = `<h1>Sign in to the marketplace</h1>
<p><strong>${escapeHtml(view.appName)}</strong> asks to read and change your marketplace data (stock, listings, messages).</p>
${problem}<form method="post" action="/authorization">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="username">Sign in as (nickname or user id)</label>
<input type="text" id="username" name="username" list="users" autocomplete="off" value="${escapeHtml(view.username ?? '')}">
<datalist id="users">${options}</datalist>
<div class="actions"><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>
<p><small>After your choice the browser returns to ${escapeHtml(new URL(view.redirectUri).origin)}.</small></p>`;
  return { status, html: layout(nonce, 'Sign in', body), headers: headers(nonce, new URL(view.redirectUri).origin) };
}

export function errorPage(status: number, title: string, message: string): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const body = `<h1>${escapeHtml(title)}</h1><p class="problem">${escapeHtml(message)}</p>
<p><small>Nothing was shared with the application. Close this window and start the sign-in again from the app.</small></p>`;
  return { status, html: layout(nonce, title, body), headers: headers(nonce) };
}
