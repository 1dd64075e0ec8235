/**
 * A browser as far as the issuer's sign-in pages need one, over plain HTTP: it follows nothing by itself (each
 * redirect is looked at), keeps the cookies the issuer sets (by name and path), sends `Sec-Fetch-Site` and
 * `Origin` as a browser does for a form it posts from the page, and reads the sign-in form's fields.
 */
import { parseSetCookie } from 'cookie';

export interface Answer { status: number; location?: string; html: string; headers: Headers }

export class FormBrowser {
  readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(readonly origin: string) {}

  private cookieHeader(url: string): string {
    const path = new URL(url).pathname;
    return [...this.cookies.entries()].filter(([, c]) => path.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`).join('; ');
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const c = parseSetCookie(line);
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, { value: c.value ?? '', path: c.path ?? '/' });
    }
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: this.cookieHeader(url), 'sec-fetch-site': 'cross-site', ...headers } });
    this.keep(res);
    return { status: res.status, location: res.headers.get('location') ?? undefined, html: await res.text(), headers: res.headers };
  }

  /** Posts `fields` as the page's form does (same origin), or with the `headers` given instead. */
  async post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(url, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: this.cookieHeader(url), origin: this.origin, 'sec-fetch-site': 'same-origin', ...headers },
    });
    this.keep(res);
    return { status: res.status, location: res.headers.get('location') ?? undefined, html: await res.text(), headers: res.headers };
  }
}

/** The sign-in form's action and hidden fields. */
export function signInForm(html: string): { action: string; request: string; csrf: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !request || !csrf) throw new Error(`not a sign-in form:\n${html.slice(0, 500)}`);
  const unescape = (s: string) => s.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  return { action: unescape(action), request, csrf };
}

/** Signs in on the form the authorization URL shows; answers the redirect back to the client. */
export async function signInThrough(browser: FormBrowser, authorizationUrl: string, email: string, password: string): Promise<string> {
  const page = await browser.get(authorizationUrl);
  if (page.status !== 200) throw new Error(`authorization answered ${page.status} ${page.location ?? page.html.slice(0, 300)}`);
  const form = signInForm(page.html);
  const done = await browser.post(form.action, { request: form.request, csrf: form.csrf, username: email, password });
  if (done.status !== 303 || !done.location) throw new Error(`sign-in answered ${done.status}:\n${done.html.slice(0, 500)}`);
  return done.location;
}
