/** The bench as a client of the API: the tenant admin's token (renewed before its 5 minutes are up) and JSON calls. */

export class Api {
  private token?: { value: string; at: number };
  private refusal = '';

  constructor(readonly origin: string, readonly tenant: string, readonly email: string, readonly password: string) {}

  get tokenUrl(): string {
    return `${this.origin}/auth/realms/${this.tenant}/protocol/openid-connect/token`;
  }

  /** The password grant's form, as the token scenario sends it too. */
  get tokenForm(): string {
    return new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username: this.email, password: this.password }).toString();
  }

  async login(): Promise<Response> {
    return fetch(this.tokenUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: this.tokenForm });
  }

  /** A fresh token, kept for headers(); false when the token endpoint refused. */
  async signIn(): Promise<boolean> {
    const res = await this.login();
    if (res.status !== 200) {
      this.refusal = `${res.status} ${await res.text()}`;
      return false;
    }
    this.token = { value: ((await res.json()) as { access_token: string }).access_token, at: Date.now() };
    return true;
  }

  /**
   * Headers of an authenticated call (`json`: with a JSON body); a token older than 4 minutes is replaced first, so
   * a scenario shorter than a minute never outlives its token.
   */
  async headers(json = false): Promise<Record<string, string>> {
    if ((!this.token || Date.now() - this.token.at > 240_000) && !(await this.signIn())) throw new Error(`signing in as ${this.email}: ${this.refusal}`);
    return { Authorization: `Bearer ${this.token!.value}`, realm: this.tenant, ...(json ? { 'Content-Type': 'application/json' } : {}) };
  }

  /** `path` below /api; answers the parsed body, or throws naming the call when the status is not `expect`. */
  async call(method: string, path: string, body?: unknown, expect = method === 'POST' ? 201 : 200): Promise<any> {
    const res = await fetch(`${this.origin}/api${path}`, { method, headers: await this.headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} /api${path}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  }
}

/** `items` through `fn`, `concurrency` at a time. */
export async function inParallel<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  }));
}
