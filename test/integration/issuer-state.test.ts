/**
 * What the browser sign-in keeps (models/issuer-state) on whichever database runs the suite: the sweep removes
 * exactly what can no longer be used, and a session's end takes its codes and refresh-token families with it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashOf, sweepIssuerState } from '../../models/issuer-state';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';

let app: TestApp;
let t: TestTenant;
beforeAll(async () => {
  ({ app, t } = await startWithTenant('issuerstate'));
}, 120_000);
afterAll(async () => app?.stop());

const uid = () => randomUUID().replaceAll('-', '');
const at = (seconds: number) => new Date(Date.now() + seconds * 1000);

async function session(idleIn: number, maxIn: number) {
  return app.models.IssuerSession.create({ uid: uid(), secretHash: hashOf(uid()), tenantUid: t.tenant.uid, userUid: t.admin.user.uid, authTime: new Date(), idleExpiresAt: at(idleIn), maxExpiresAt: at(maxIn) });
}
async function code(sessionUid: string, expiresIn: number) {
  return app.models.IssuerCode.create({
    codeHash: hashOf(uid()), sessionUid, tenantUid: t.tenant.uid, userUid: t.admin.user.uid, clientId: 'self-service', redirectUri: 'http://x/cb',
    codeChallenge: 'c'.repeat(43), nonce: null, scope: 'openid', expiresAt: at(expiresIn), consumedAt: null, grantUid: null,
  });
}
async function family(sessionUid: string) {
  return app.models.IssuerGrant.create({ uid: uid(), sessionUid, tenantUid: t.tenant.uid, userUid: t.admin.user.uid, clientId: 'self-service', currentJti: uid(), revokedAt: null, createdAt: new Date() });
}

describe('the issuer state', () => {
  it('the sweep removes idle or overlong sessions (their codes and families with them), expired codes, requests and revocations; nothing live', async () => {
    const live = await session(600, 3600);
    const idle = await session(-1, 3600);
    const overlong = await session(600, -1);
    const liveCode = await code(live.uid, 60);
    const staleCode = await code(live.uid, -1);
    const idleCode = await code(idle.uid, 60);
    const liveFamily = await family(live.uid);
    const overlongFamily = await family(overlong.uid);
    const request = (expiresIn: number) => app.models.IssuerRequest.create({
      uid: uid(), tenantUid: t.tenant.uid, clientId: 'self-service', redirectUri: 'http://x/cb', scope: 'openid', state: null, nonce: null,
      codeChallenge: 'c'.repeat(43), loginHint: null, bindingHash: hashOf(uid()), expiresAt: at(expiresIn), consumedAt: null,
    });
    const [openRequest, oldRequest] = [await request(600), await request(-1)];
    const [keptJti, goneJti] = [uid(), uid()];
    await app.models.IssuerRevokedToken.bulkCreate([{ jti: keptJti, expiresAt: at(600) }, { jti: goneJti, expiresAt: at(-1) }]);

    await sweepIssuerState(app.models, new Date());

    const exists = async (model: { findByPk: (k: string) => Promise<unknown> }, key: string) => (await model.findByPk(key)) !== null;
    expect(await exists(app.models.IssuerSession, live.uid)).toBe(true);
    expect(await exists(app.models.IssuerSession, idle.uid)).toBe(false);
    expect(await exists(app.models.IssuerSession, overlong.uid)).toBe(false);
    expect(await exists(app.models.IssuerCode, liveCode.codeHash)).toBe(true);
    expect(await exists(app.models.IssuerCode, staleCode.codeHash)).toBe(false);
    expect(await exists(app.models.IssuerCode, idleCode.codeHash)).toBe(false);
    expect(await exists(app.models.IssuerGrant, liveFamily.uid)).toBe(true);
    expect(await exists(app.models.IssuerGrant, overlongFamily.uid)).toBe(false);
    expect(await exists(app.models.IssuerRequest, openRequest.uid)).toBe(true);
    expect(await exists(app.models.IssuerRequest, oldRequest.uid)).toBe(false);
    expect(await exists(app.models.IssuerRevokedToken, keptJti)).toBe(true);
    expect(await exists(app.models.IssuerRevokedToken, goneJti)).toBe(false);
  });
});
