/**
 * Several hosts, one database (issue 32): three `npm start` processes on one empty database, sharing what README's
 * Configuration says hosts must share, with requests spread across them. Races keep one winner, tokens and keys
 * work on every host, a change through one host is seen at once through another. With `PMS_HOST_DATABASE_URLS`
 * (scripts/test-galera.sh) each host is on another node of a Galera cluster; there a certification conflict may
 * answer a loser 409 where one database would have made it wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryTypes } from 'sequelize';
import { loadConfig } from '../../core/config';
import { createSecretBox } from '../../core/secret-box';
import { createKeyStore } from '../../auth/keys';
import { mintTokens } from '../../auth/tokens';
import { migrations } from '../../migrations';
import { accessWorld, worldStream, type AccessWorld } from '../support/access-world';
import { createTenant, createUser, type TestTenant } from '../support/app';
import { startFakeAiven, type FakeAiven } from '../support/fake-aiven';
import { grantAuditOf } from '../support/audit';
import { newApplication, requestedGrant } from '../support/fixtures';
import { hostServerUrls, startHosts, type Hosts } from '../support/hosts';
import { call, created, type CallResult } from '../support/http';
import { s256 } from '../../auth/pkce';
import { FormBrowser, signInForm } from '../support/browser-form';

const onSeveralServers = hostServerUrls().length > 1;
const AIVEN_TOKEN = 'two-hosts-aiven-token';
let h: Hosts;
let t: TestTenant;
let w: AccessWorld;
let aiven: FakeAiven;

beforeAll(async () => {
  aiven = await startFakeAiven({
    token: AIVEN_TOKEN,
    projects: {
      acme: [{
        name: 'kafka-hosts', type: 'kafka', schemaRegistry: false, components: [{ component: 'kafka', host: 'kafka.test', port: 12345 }],
        topics: Array.from({ length: 6 }, (_, i) => ({ name: `imported-${i}`, partitions: 3, replication: 3 })),
        acl: [{ username: 'reader', topic: 'imported-*', permission: 'read' }],
        subjects: [],
      }],
    },
  });
  // Every host sweeps for expired access often, so their sweeps meet on the same due grants.
  h = await startHosts(3, { AIVEN_API_URL: aiven.url, ACCESS_EXPIRY_SWEEP_MS: '250' });
  t = await createTenant(h.at(0), 'hosts');
  w = await accessWorld(h.at(1), t, 'th');
}, 240_000);
afterAll(async () => {
  await h?.stop();
  await aiven?.close();
});

/** `n` requests at once, request i through host i (round robin). */
const spread = (n: number, send: (i: number) => Promise<CallResult>) => Promise.all(Array.from({ length: n }, (_, i) => send(i)));
const statuses = (replies: CallResult[]) => replies.map((r) => r.status);

describe('hosts started together on one empty database', () => {
  it('each serves; the migrations ran once and the first-start tenant was made once', async () => {
    for (const host of h.hosts) expect((await call(host.app, 'GET', '/info')).status).toBe(200);
    const made = h.hosts.filter((host) => host.output().includes(`Created tenant '${h.admin.tenant}'`));
    expect(made, h.hosts.map((x) => x.output()).join('\n---\n')).toHaveLength(1);
    const models = h.at(0).models;
    expect(await models.Tenant.count({ where: { shortName: h.admin.tenant } })).toBe(1);
    const applied = await models.sequelize.query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT });
    expect(applied.map((r) => r.name).sort()).toEqual(migrations.map((m) => m.name).sort());
  });
});

describe('tokens and keys across hosts', () => {
  it('a token issued by one host is accepted by every other', async () => {
    const fromSecond = await createUser(h.at(1), t, [], 'viaB');
    for (let i = 0; i < 3; i++) {
      const me = await call(h.at(i), 'GET', '/user', { token: fromSecond.token });
      expect(me.status, me.text).toBe(200);
      expect(me.body.uid).toBe(fromSecond.user.uid);
    }
  });

  it('a user deleted through one host is refused at once through the other', async () => {
    const leaving = await createUser(h.at(1), t, [], 'leaving');
    expect((await call(h.at(1), 'GET', '/user', { token: leaving.token })).status).toBe(200);
    const removed = await call(h.at(0), 'DELETE', `/users/${leaving.user.uid}`, { token: t.admin.token });
    expect(removed.status, removed.text).toBe(204);
    expect((await call(h.at(1), 'GET', '/user', { token: leaving.token })).status).toBe(401);
    expect((await call(h.at(2), 'GET', '/user', { token: leaving.token })).status).toBe(401);
  });

  it('a signing key rotated by one process signs tokens every host accepts, and the previous key still verifies', async () => {
    const before = await createUser(h.at(0), t, [], 'prerotation');
    const box = createSecretBox(loadConfig({}), { ENCRYPTION_KEY: h.shared.encryptionKey });
    const keys = createKeyStore(h.at(0).models, box);
    await keys.rotate();
    const user = (await h.at(0).models.User.findByPk(t.admin.user.uid))!;
    const { access_token: token } = await mintTokens({
      keys, authUrl: `${h.shared.publicUrl}/auth`, realm: t.shortName, user, clientId: 'self-service', withRefreshToken: false,
    });
    const kid = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')).kid;
    expect(kid).toBe((await keys.activeKey()).kid);
    for (let i = 0; i < 3; i++) {
      expect((await call(h.at(i), 'GET', '/user', { token })).status).toBe(200);
      expect((await call(h.at(i), 'GET', '/user', { token: before.token })).status).toBe(200);
    }
  });
});

describe('browser sign-in across hosts (no sticky sessions)', () => {
  it('authorize on one host, sign in on another, redeem on a third; single sign-on and sign-out on any', async () => {
    const publicOrigin = new URL(h.shared.publicUrl).origin;
    const onHost = (i: number, url: string) => url.replace(publicOrigin, h.at(i).url);
    const redirect = `${h.shared.publicUrl}/api/docs/oauth2-redirect.html`;
    const authorize = (v: string) => `${h.at(0).authUrl}/realms/${t.shortName}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: 'self-service', redirect_uri: redirect, response_type: 'code', scope: 'openid', state: 'hosts', code_challenge: s256(v), code_challenge_method: 'S256',
    })}`;
    const browser = new FormBrowser(publicOrigin);
    const v = 'w'.repeat(43);
    const form = signInForm((await browser.get(authorize(v))).html);
    const signedIn = await browser.post(onHost(1, form.action), { request: form.request, csrf: form.csrf, username: t.admin.email, password: t.admin.password });
    expect(signedIn.status, signedIn.html.slice(0, 300)).toBe(303);
    const code = new URL(signedIn.location!).searchParams.get('code')!;
    const token = async (i: number, fields: Record<string, string>) => {
      const res = await fetch(`${h.at(i).authUrl}/realms/${t.shortName}/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams({ client_id: 'self-service', ...fields }) });
      return { status: res.status, body: await res.json() as Record<string, string> };
    };
    const tokens = await token(2, { grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: v });
    expect(tokens.status).toBe(200);
    expect((await call(h.at(0), 'GET', '/user', { token: tokens.body.access_token })).status).toBe(200);

    // Single sign-on through host 2: a code at once, no form.
    const silent = await browser.get(onHost(2, authorize('x'.repeat(43))));
    expect(silent.status).toBe(302);
    expect(new URL(silent.location!).searchParams.get('code')).toBeTruthy();

    const refreshed = await token(0, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token });
    expect(refreshed.status).toBe(200);
    const out = await browser.get(`${h.at(1).authUrl}/realms/${t.shortName}/protocol/openid-connect/logout?id_token_hint=${refreshed.body.id_token}`);
    expect(out.status).toBe(200);
    expect((await token(2, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).status).toBe(400);
  });
});

describe('races across hosts: one winner', () => {
  it('20 creates of one name: one 201, the rest 409 naming the field', async () => {
    const replies = await spread(20, (i) => call(h.at(i), 'POST', '/groups', { token: t.admin.token, body: { name: 'Contended Team' } }));
    expect(statuses(replies).filter((s) => s === 201)).toHaveLength(1);
    const losers = replies.filter((r) => r.status !== 201);
    expect(losers.map((r) => r.status)).toEqual(losers.map(() => 409));
    // A certification conflict (Galera) is a lost race too; on one database every loser saw the name taken.
    for (const r of losers) {
      expect(r.body.errors[0], r.text).toMatch(onSeveralServers ? /^name: 'Contended Team' already exists$|collided/ : /^name: 'Contended Team' already exists$/);
    }
    expect(await h.at(0).models.Group.count({ where: { tenantUid: t.tenant.uid, nameKey: 'contended team' } })).toBe(1);
  });

  it('50 decisions on one grant (approve and cancel): exactly one transition, one audit entry', async () => {
    const stream = await worldStream(h.at(0), w, 'th-contended');
    const grant = (await requestedGrant(h.at(0), w.appOwner.token, { application: w.application.uid, stream: stream.uid, environment: w.managed.uid })).uid;
    const replies = await spread(50, (i) => (i % 2 === 0
      ? call(h.at(i), 'PUT', `/application_access_grants/${grant}`, { token: w.streamOwner.token })
      : call(h.at(i), 'DELETE', `/application_access_grants/${grant}`, { token: w.appOwner.token })));
    // Approved once, or cancelled (a DELETE of a cancelled request answers 204 again); the other decisions lost.
    const approved = replies.filter((r) => r.status === 200);
    const cancelled = replies.filter((r) => r.status === 204);
    const outcome = statuses(replies).join(',');
    if (approved.length > 0) expect([approved.length, cancelled.length], outcome).toEqual([1, 0]);
    else expect(cancelled.length, outcome).toBeGreaterThan(0);
    for (const r of replies.filter((x) => x.status >= 300)) expect([409, 422], r.text).toContain(r.status);
    const trail = (await grantAuditOf(h.at(0), w.application.uid, grant)).map((e) => e.action);
    expect(trail.filter((a) => a !== 'APPLICATION_ACCESS_REQUESTED')).toHaveLength(1);
  });

  it('concurrent activations of ten principals: exactly one active, each success audited once', async () => {
    const connector = await newApplication(h.at(0), w.appOwner.token, { tag: 'th', owners: w.appTeam.uid, kind: 'Connector' });
    const uids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const row = await h.at(0).models.ApplicationPrincipal.create({
        tenantUid: t.tenant.uid, applicationUid: connector.uid, environmentUid: w.managed.uid, principal: `CN=th-${i}`,
        identity: `custom:th-${i}`, type: 'OAUTH', custom: true, active: false,
      });
      uids.push(row.uid as string);
    }
    const replies = await spread(10, (i) => call(h.at(i), 'POST', `/application_authentications/${uids[i]}/activate`, { token: w.appOwner.token }));
    for (const r of replies) expect(onSeveralServers ? [200, 409] : [200], r.text).toContain(r.status);
    const active = await h.at(0).models.ApplicationPrincipal.count({ where: { applicationUid: connector.uid, environmentUid: w.managed.uid, active: true } });
    expect(active).toBe(1);
    const swaps = await h.at(0).models.AuditEvent.count({ where: { tenantUid: t.tenant.uid, action: 'AUTHENTICATION_CONFIGURED', resourceId: connector.uid } });
    expect(swaps).toBe(replies.filter((r) => r.status === 200).length);
  });

  it('two imports of the same topics through two hosts: each topic imported once', async () => {
    const group = await created(h.at(0), '/groups', { name: 'Import Team' }, t.admin.token);
    const env = await created(h.at(0), '/environments', { name: 'imports', shortName: 'imports', instance: w.instance.uid, owners: group.uid }, t.admin.token);
    const body = {
      providerConfigs: { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': AIVEN_TOKEN, 'Svc-Service-Name-A': 'kafka-hosts' },
      environment: env.uid, owners: group.uid, topics: Array.from({ length: 6 }, (_, i) => `imported-${i}`),
    };
    const replies = await spread(2, (i) => call(h.at(i), 'POST', '/wizard/topics/import', { token: t.admin.token, body }));
    for (const r of replies) expect(r.status, r.text).toBe(200);
    // A topic both imports wrote at once is one import's, and the other says so among its failures.
    expect(replies[0].body.streams.created + replies[1].body.streams.created).toBeLessThanOrEqual(6);
    const again = await call(h.at(2), 'POST', '/wizard/topics/import', { token: t.admin.token, body });
    expect(again.status, again.text).toBe(200);
    expect(again.body.failures).toEqual([]);
    expect(again.body.streams.created + again.body.streams.existing).toBe(6);
    const m = h.at(0).models;
    expect(await m.Stream.count({ where: { tenantUid: t.tenant.uid, name: body.topics } })).toBe(6);
    expect(await m.StreamConfig.count({ where: { tenantUid: t.tenant.uid, environmentUid: env.uid } })).toBe(6);
  });
});

describe('access that expires, swept by every host', () => {
  it('each grant past its end is revoked once, with one audit entry by system, whichever host swept it', async () => {
    const streams = await Promise.all([0, 1, 2, 3, 4].map((i) => worldStream(h.at(i), w, `th-expiring-${i}`)));
    const end = new Date(Date.now() + 3000).toISOString();
    const grants = await Promise.all(streams.flatMap((stream, i) => ['CONSUMER', 'PRODUCER'].map(async (accessType, j) => {
      const reply = await call(h.at(i + j), 'POST', '/application_access_grants', { token: w.appOwner.token, body: {
        applicationId: w.application.uid, streamId: stream.uid, environmentId: w.auto.uid, accessType, expiresAt: end,
      } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ status: 'Approved', expiresAt: end });
      return reply.body.uid as string;
    })));
    const { ApplicationAccessGrant } = h.at(0).models;
    const versions = new Map((await ApplicationAccessGrant.findAll({ where: { uid: grants } })).map((r) => [r.uid, r.version]));
    const statusOf = async (uid: string) => (await call(h.at(0), 'GET', `/application_access_grants/${uid}`, { token: w.appOwner.token })).body.status;
    const deadline = Date.now() + 20_000;
    while ((await Promise.all(grants.map(statusOf))).some((s) => s !== 'Revoked')) {
      if (Date.now() > deadline) throw new Error(`not every grant was revoked: ${(await Promise.all(grants.map(statusOf))).join(',')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Two more sweeps of every host: nothing is revoked or audited twice.
    await new Promise((resolve) => setTimeout(resolve, 600));
    for (const uid of grants) {
      const revoked = (await grantAuditOf(h.at(0), w.application.uid, uid)).filter((e) => e.action === 'APPLICATION_ACCESS_REVOKED');
      expect(revoked.map((e) => [e.actor, e.details.reason]), uid).toEqual([['system', 'expired']]);
      const row = await ApplicationAccessGrant.findOne({ where: { uid } });
      expect([row!.status, row!.processedBy, row!.version]).toEqual(['Revoked', 'system', versions.get(uid) + 1]);
    }
  }, 60_000);
});

describe('what one host writes, another serves at once', () => {
  it('the AsyncAPI document after a change through another host is never the cached one', async () => {
    const stream = await worldStream(h.at(0), w, 'th-documented');
    const config = (await h.at(0).models.StreamConfig.findOne({ where: { streamUid: stream.uid } }))!;
    const doc = (i: number) => call(h.at(i), 'GET', `/stream_configs/${config.uid}/asyncapi`, { token: w.streamOwner.token });
    for (let i = 0; i < 3; i++) expect((await doc(i)).status).toBe(200);
    for (let round = 0; round < 3; round++) {
      const description = `described through host ${round}`;
      const patched = await call(h.at(round), 'PATCH', `/streams/${stream.uid}`, { token: w.streamOwner.token, body: { description } });
      expect(patched.status, patched.text).toBe(200);
      for (let i = 0; i < 3; i++) expect((await doc(i)).body.asyncApiSpec).toContain(description);
    }
  });

  it('a group created through one host is read through every other at once (8 loops)', async () => {
    await Promise.all(Array.from({ length: 8 }, async (_, loop) => {
      for (let n = 0; n < 5; n++) {
        const made = await created(h.at(loop + n), '/groups', { name: `RYW ${loop}-${n}` }, t.admin.token);
        const read = await call(h.at(loop + n + 1), 'GET', `/groups/${made.uid}`, { token: t.admin.token });
        expect(read.status, `loop ${loop}, write ${n}: ${read.text}`).toBe(200);
      }
    }));
  });
});

describe('a host that disagrees', () => {
  it('with another PUBLIC_URL than the hosts before it: one warning line at start naming both, and it serves', async () => {
    const odd = await h.add({ PUBLIC_URL: 'http://elsewhere.test' });
    const warnings = odd.output().split('\n').filter((line) => line.includes('differs from'));
    expect(warnings, odd.output()).toHaveLength(1);
    expect(warnings[0]).toContain('issuer URL http://elsewhere.test/auth differs from http://pms-hosts.test/auth');
    expect(warnings[0]).toContain('PUBLIC_URL');
    expect((await call(odd.app, 'GET', '/info')).status).toBe(200);
    for (const host of h.hosts.slice(0, 3)) expect(host.output()).not.toContain('differs from');
  });
});
