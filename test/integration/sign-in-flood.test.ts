/**
 * Issue 32 §5: a flood of sign-ins at the embedded issuer. Each process holds at most `SIGN_IN_QUEUE` sign-ins
 * (2 here); beyond that the token endpoint answers 503 `temporarily_unavailable` with `Retry-After` at once, having
 * spent no hash on it, while API requests carrying tokens go on being served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivationCount } from '../../core/passwords';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call } from '../support/http';
import { createServiceAccount, passwordForm, secretForm, tokenRequest } from '../support/token-endpoint';

const QUEUE = 2;
const BOT_SECRET = 'flood-bot-secret-0123456789';

let app: TestApp;
let t: TestTenant;
let user: TestUser;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('flood', { signInQueue: QUEUE }));
  user = await createUser(app, t, ['STREAM_AUTHOR'], 'flooded');
  await createServiceAccount(app, t, 'flood-bot', { secret: BOT_SECRET });
}, 60_000);
afterAll(async () => {
  await app?.stop();
});

describe('a flood of sign-ins', () => {
  it('beyond the bound answers 503 with Retry-After at once, without a hash; API calls with tokens keep answering 200', async () => {
    const before = derivationCount();
    const signIns = Array.from({ length: 40 }, (_, i) => (i % 4 === 3
      ? tokenRequest(app.authUrl, t.shortName, secretForm('flood-bot', BOT_SECRET))
      : tokenRequest(app.authUrl, t.shortName, passwordForm(user))));
    const apiCalls = Array.from({ length: 10 }, () => call(app, 'GET', '/user', { token: user.token }));
    const [answers, served] = await Promise.all([Promise.all(signIns), Promise.all(apiCalls)]);

    expect(served.map((r) => r.status)).toEqual(served.map(() => 200));
    const refused = answers.filter((a) => a.status === 503);
    const issued = answers.filter((a) => a.status === 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(issued.length).toBeGreaterThanOrEqual(QUEUE);
    expect(refused.length + issued.length).toBe(answers.length);
    for (const a of refused) {
      expect(a.body).toEqual({ error: 'temporarily_unavailable', error_description: 'Too many sign-ins at once; retry later' });
      expect(a.headers.get('retry-after')).toBe('1');
      expect(a.headers.get('cache-control')).toBe('no-store');
    }
    // Every sign-in let in cost its one hash; the refused ones none.
    expect(derivationCount() - before).toBe(issued.length);
  });

  it('once the flood has passed, sign-ins are served again', async () => {
    expect((await tokenRequest(app.authUrl, t.shortName, passwordForm(user))).status).toBe(200);
    expect((await tokenRequest(app.authUrl, t.shortName, secretForm('flood-bot', BOT_SECRET))).status).toBe(200);
  });
});
