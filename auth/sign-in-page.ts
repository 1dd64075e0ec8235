/**
 * The pages of the embedded issuer's browser sign-in, rendered here: the sign-in form, an error page, the sign-out
 * confirmation and the signed-out page. Pure: values in, HTML and headers out. No script at all; one inline style
 * whose hash the Content-Security-Policy names. Accessible without a mouse or sight: a language, a title and a
 * heading, labels tied to their inputs, autocomplete hints, and an error that is announced (`role="alert"`) and tied
 * to the fields it is about.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../core/html';

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1d21}',
  'main{max-width:24rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002}',
  'h1{font-size:1.4rem;margin:0 0 .25rem}p.realm{margin:0 0 1.5rem;color:#4a4f57}',
  'label{display:block;font-weight:600;margin:1rem 0 .25rem}',
  'input{box-sizing:border-box;width:100%;padding:.6rem;border:1px solid #6b7280;border-radius:4px;font:inherit}',
  'input:focus,button:focus{outline:3px solid #2563eb;outline-offset:2px}',
  'input[aria-invalid=true]{border-color:#b91c1c}',
  'button{margin-top:1.5rem;width:100%;padding:.7rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}',
  '.error{margin:1rem 0 0;padding:.75rem;border-radius:4px;background:#fef2f2;color:#991b1b;border:1px solid #fca5a5}',
].join('');
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface SignInForm {
  tenantName: string;
  /** Where the form posts (the issuer's sign-in action for this request). */
  action: string;
  request: string;
  csrf: string;
  username?: string;
  /** The failure to announce, if the last attempt failed. */
  error?: string;
}

export function renderSignInPage(form: SignInForm): string {
  const error = form.error !== undefined;
  const invalid = error ? ' aria-invalid="true" aria-describedby="sign-in-error"' : '';
  return page(`Sign in to ${form.tenantName}`, `<h1>Sign in</h1>
<p class="realm">to <strong>${escapeHtml(form.tenantName)}</strong></p>
<form method="post" action="${escapeHtml(form.action)}" novalidate>
<input type="hidden" name="request" value="${escapeHtml(form.request)}">
<input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">
<label for="username">Email</label>
<input id="username" name="username" type="email" autocomplete="username" required${error ? '' : ' autofocus'} value="${escapeHtml(form.username ?? '')}"${invalid}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${error ? ' autofocus' : ''}${invalid}>
${error ? `<p class="error" id="sign-in-error" role="alert">${escapeHtml(form.error!)}</p>\n` : ''}<button type="submit">Sign in</button>
</form>`);
}

/** A request that cannot go on and must not go back to where it came from (an unknown client, say). */
export function renderErrorPage(message: string): string {
  return page('Sign-in error', `<h1>We cannot sign you in</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Go back to the application and start again.</p>`);
}

export function renderSignOutPage(form: { action: string; csrf: string; tenantName: string }): string {
  return page('Sign out', `<h1>Sign out</h1>
<p class="realm">of <strong>${escapeHtml(form.tenantName)}</strong></p>
<form method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">
<input type="hidden" name="confirm" value="yes">
<button type="submit">Sign out</button>
</form>`);
}

export function renderSignedOutPage(): string {
  return page('Signed out', '<h1>You are signed out</h1>\n<p>You can close this window.</p>');
}

/**
 * The headers of every page: no script, no frame (clickjacking), no referrer to other sites, no cache. `formTargets`: the origins
 * a form's answer may redirect to (Chrome applies `form-action` to the redirect after the POST too).
 */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  const targets = [...new Set(formTargets)].join(' ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self' data:; form-action 'self'${targets ? ` ${targets}` : ''}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the form's POST.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
  };
}
