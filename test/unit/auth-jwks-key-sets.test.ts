import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRemoteKeySets, fetchWithJwksRsa, KeySourceUnavailableError, REFRESH_POLICY, TokenBucket, UnknownSigningKeyError,
  type KeySet, type RefreshPolicy,
} from '../../auth/jwks-clients';
import { startExternalIssuer, type ExternalIssuer } from '../support/external-issuer';

describe('TokenBucket', () => {
  it('allows a burst, then one take per interval', () => {
    let t = 0;
    const bucket = new TokenBucket(3, 1_000, () => t);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    t = 999;
    expect(bucket.take()).toBe(false);
    t = 1_000;
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
  });

  it('refills up to its capacity only', () => {
    let t = 0;
    const bucket = new TokenBucket(2, 1_000, () => t);
    t = 60_000;
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
  });
});

/** A fake IdP: the key set it would serve now, how often it was asked, and whether it is down. */
function fakeIdp() {
  const idp = { keys: new Map([['k1', 'PEM-1']]) as KeySet, fetches: 0, down: false, delayMs: 0 };
  const fetchKeys = async (uri: string) => {
    idp.fetches += 1;
    if (idp.delayMs) await new Promise((r) => setTimeout(r, idp.delayMs));
    if (idp.down) throw new KeySourceUnavailableError(uri, 'down');
    return new Map(idp.keys);
  };
  return { idp, fetchKeys };
}

function setup(policy: Partial<RefreshPolicy> = {}) {
  const clock = { t: 1_000_000 };
  const { idp, fetchKeys } = fakeIdp();
  const lookup = createRemoteKeySets({ policy: { ...REFRESH_POLICY, ...policy }, now: () => clock.t, fetchKeys });
  return { clock, idp, lookup };
}

const URI = 'http://idp/realms/a/protocol/openid-connect/certs';

describe('createRemoteKeySets', () => {
  it('fetches once, then answers known kids from memory', async () => {
    const { idp, lookup } = setup();
    expect(await lookup(URI, 'k1')).toBe('PEM-1');
    expect(await lookup(URI, 'k1')).toBe('PEM-1');
    expect(idp.fetches).toBe(1);
  });

  it('keeps one key set per JWKS URI', async () => {
    const { idp, lookup } = setup();
    await lookup(URI, 'k1');
    await lookup(`${URI}-b`, 'k1');
    await lookup(URI, 'k1');
    expect(idp.fetches).toBe(2);
  });

  it('an unknown kid refetches once and finds a rotated key', async () => {
    const { idp, lookup } = setup();
    await lookup(URI, 'k1');
    idp.keys.set('k2', 'PEM-2');
    expect(await lookup(URI, 'k2')).toBe('PEM-2');
    expect(await lookup(URI, 'k2')).toBe('PEM-2');
    expect(idp.fetches).toBe(2);
  });

  it('random kids spend the fetch budget, then are refused without asking the IdP', async () => {
    const { clock, idp, lookup } = setup({ fetchBurst: 3, fetchIntervalMs: 20_000 });
    await lookup(URI, 'k1');
    for (let i = 0; i < 20; i += 1) await expect(lookup(URI, `random-${i}`)).rejects.toBeInstanceOf(UnknownSigningKeyError);
    expect(idp.fetches).toBe(3);
    expect(await lookup(URI, 'k1')).toBe('PEM-1');
    clock.t += 20_000;
    await expect(lookup(URI, 'random-x')).rejects.toBeInstanceOf(UnknownSigningKeyError);
    expect(idp.fetches).toBe(4);
  });

  it('concurrent lookups share one fetch', async () => {
    const { idp, lookup } = setup();
    idp.delayMs = 20;
    const keys = await Promise.all(Array.from({ length: 10 }, () => lookup(URI, 'k1')));
    expect(keys).toEqual(Array(10).fill('PEM-1'));
    expect(idp.fetches).toBe(1);
  });

  it('an aged set is refetched; a key dropped by the IdP stops verifying', async () => {
    const { clock, idp, lookup } = setup({ maxAgeMs: 60_000 });
    await lookup(URI, 'k1');
    clock.t += 60_000;
    idp.keys = new Map([['k2', 'PEM-2']]);
    await expect(lookup(URI, 'k1')).rejects.toBeInstanceOf(UnknownSigningKeyError);
    expect(idp.fetches).toBe(2);
  });

  it('IdP down with nothing cached → unavailable (502 upstream), also once the budget is spent', async () => {
    const { idp, lookup } = setup({ fetchBurst: 2 });
    idp.down = true;
    for (let i = 0; i < 4; i += 1) await expect(lookup(URI, 'k1')).rejects.toBeInstanceOf(KeySourceUnavailableError);
    expect(idp.fetches).toBe(2);
  });

  it('IdP down: a fresh set keeps working, an aged one within the stale window too, beyond it not', async () => {
    const { clock, idp, lookup } = setup({ maxAgeMs: 60_000, staleMs: 120_000, fetchBurst: 100 });
    await lookup(URI, 'k1');
    idp.down = true;
    expect(await lookup(URI, 'k1')).toBe('PEM-1');
    expect(idp.fetches).toBe(1);
    clock.t += 90_000;
    expect(await lookup(URI, 'k1')).toBe('PEM-1');
    expect(idp.fetches).toBe(2);
    clock.t += 100_000;
    await expect(lookup(URI, 'k1')).rejects.toBeInstanceOf(KeySourceUnavailableError);
  });

  it('IdP down and a new kid → unavailable, not a silent 401', async () => {
    const { idp, lookup } = setup();
    await lookup(URI, 'k1');
    idp.down = true;
    await expect(lookup(URI, 'k9')).rejects.toBeInstanceOf(KeySourceUnavailableError);
  });

  it('the IdP back up: the next fetch succeeds', async () => {
    const { clock, idp, lookup } = setup({ fetchBurst: 1, fetchIntervalMs: 10_000 });
    idp.down = true;
    await expect(lookup(URI, 'k1')).rejects.toBeInstanceOf(KeySourceUnavailableError);
    idp.down = false;
    await expect(lookup(URI, 'k1')).rejects.toBeInstanceOf(KeySourceUnavailableError);
    clock.t += 10_000;
    expect(await lookup(URI, 'k1')).toBe('PEM-1');
  });
});

describe('fetchWithJwksRsa', () => {
  let issuer: ExternalIssuer;
  let silent: Server;
  let garbage: Server;
  let failing: Server;
  const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

  beforeAll(async () => {
    issuer = await startExternalIssuer();
    silent = createServer(() => { /* never answers */ });
    garbage = createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"keys": "nope"'); });
    failing = createServer((_req, res) => { res.writeHead(500).end(); });
    await Promise.all([silent, garbage, failing].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
  });
  afterAll(async () => {
    await issuer.close();
    for (const s of [silent, garbage, failing]) { s.closeAllConnections(); s.close(); }
  });

  it('reads the signing keys of a JWKS into kid → PEM', async () => {
    const kid2 = issuer.rotate();
    const keys = await fetchWithJwksRsa()(`${issuer.url}/realms/x/protocol/openid-connect/certs`, 2_000);
    expect(keys.size).toBe(2);
    expect(keys.get(kid2)).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it('a realm the IdP does not know (404) has an empty key set: its tokens are refused, not a 502', async () => {
    expect((await fetchWithJwksRsa()(`${issuer.url}/realms/x/nope`, 2_000)).size).toBe(0);
  });

  it.each([
    ['an IdP answering 503', () => { issuer.setDown(true); return `${issuer.url}/realms/x/protocol/openid-connect/certs`; }],
    ['an IdP error (500)', () => `${urlOf(failing)}/certs`],
    ['a closed port', () => 'http://127.0.0.1:1/certs'],
    ['an IdP that never answers', () => `${urlOf(silent)}/certs`],
    ['a broken JSON document', () => `${urlOf(garbage)}/certs`],
  ])('%s → KeySourceUnavailableError', async (_case, uri) => {
    try {
      await expect(fetchWithJwksRsa()(uri(), 300)).rejects.toBeInstanceOf(KeySourceUnavailableError);
    } finally {
      issuer.setDown(false);
    }
  });
});
