/** The issuer's sign-in pages: no script, escaped values, labelled fields, an announced error, strict headers. */
import { describe, expect, it } from 'vitest';
import { pageHeaders, renderErrorPage, renderSignInPage } from '../../auth/sign-in-page';

const form = { tenantName: 'Acme <script>alert(1)</script> & "Co"', action: 'https://pms.example/auth/realms/acme/login-actions/authenticate', request: 'r'.repeat(32), csrf: 'c"><x' };

describe('the sign-in page', () => {
  it('has no script and escapes every value it shows', () => {
    const html = renderSignInPage({ ...form, username: '"><img src=x onerror=alert(1)>' });
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expect(html).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('value="c&quot;&gt;&lt;x"');
  });

  it('labels each field, hints autocomplete, and starts on the email field', () => {
    const html = renderSignInPage(form);
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<label for="username">Email<\/label>\s*<input id="username" name="username" type="email" autocomplete="username" required autofocus/);
    expect(html).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password" autocomplete="current-password" required/);
    expect(html).not.toContain('role="alert"');
  });

  it('a failed attempt: the error is announced and tied to the fields, focus on the password', () => {
    const html = renderSignInPage({ ...form, username: 'a@b.c', error: 'Invalid email or password.' });
    expect(html).toContain('<p class="error" id="sign-in-error" role="alert">Invalid email or password.</p>');
    expect(html).toMatch(/id="username"[^>]*value="a@b.c" aria-invalid="true" aria-describedby="sign-in-error"/);
    expect(html).toMatch(/id="password"[^>]*required autofocus aria-invalid="true" aria-describedby="sign-in-error"/);
  });

  it('an error page says what happened, and offers no way onwards', () => {
    const html = renderErrorPage('The application asked to return to an address it has not registered.');
    expect(html).toContain('role="alert"');
    expect(html).not.toMatch(/<a |<form/);
  });
});

describe('page headers', () => {
  it('forbid scripts and frames, allow the one style, and post forms only here and to the client', () => {
    const headers = pageHeaders(['https://app.example']);
    const csp = headers['Content-Security-Policy'];
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'self' data:; form-action 'self' https:\/\/app.example; frame-ancestors 'none'; base-uri 'none'$/);
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(headers['Cache-Control']).toBe('no-store');
  });
});
