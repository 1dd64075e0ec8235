import { createHash, createPublicKey, generateKeyPair as generateKeyPairCb } from 'node:crypto';
import { promisify } from 'node:util';
import { Op } from 'sequelize';
import type { Models } from '../models';
import type { SigningKeyRow } from '../models/signing-key';
import type { SecretBox } from '../core/secret-box';
import { ConfigError } from '../core/config';

const generateKeyPair = promisify(generateKeyPairCb);

/** A public signing key as published in the JWKS (RFC 7517). */
export interface PublicJwk {
  kty: 'RSA';
  kid: string;
  use: 'sig';
  alg: 'RS256';
  n: string;
  e: string;
}

export interface KeyStore {
  /** The key new tokens are signed with; made on first use when the database holds none. */
  activeKey(): Promise<{ kid: string; privateKeyPem: string }>;
  /** All keys a token may still be verified with. `refresh` re-reads the database (rate-limited). */
  jwks(options?: { refresh?: boolean }): Promise<{ keys: PublicJwk[] }>;
  /** Makes a new active key; the previous ones stay published for the grace period, then retire. */
  rotate(): Promise<void>;
}

/** Longest token lifetime (refresh, 1800 s) plus clock leeway: a rotated-out key must outlive what it signed. */
export const ROTATION_GRACE_MS = (1800 + 60) * 1000;
// Another process may rotate or create a key; re-reading this often bounds how long we miss it.
const CACHE_TTL_MS = 60_000;
// Forced re-reads come from tokens with an unknown kid, which anyone can send: at most one per this interval.
const MIN_REFRESH_INTERVAL_MS = 1_000;

interface LoadedKey { kid: string; jwk: PublicJwk; sealedPrivateKey: string; createdAt: Date; retiredAt: Date | null }

export function createKeyStore(models: Pick<Models, 'SigningKey'>, secretBox: SecretBox): KeyStore {
  const { SigningKey } = models;
  let cache: { keys: LoadedKey[]; startedAt: number; generation: number } | undefined;
  let loading: Promise<LoadedKey[]> | undefined;
  /** When the newest read, done or under way, began. */
  let pendingStartedAt = 0;
  let generation = 0;
  let creating: Promise<LoadedKey> | undefined;
  const privatePems = new Map<string, string>();

  /** Reads the keys; answers the newest read's keys, which a read that finishes late does not replace. */
  async function load(): Promise<LoadedKey[]> {
    // A read started before a key was written may finish after one started later: the newest read wins the cache.
    const started = ++generation;
    const startedAt = Date.now();
    const rows = await SigningKey.findAll({
      where: { [Op.or]: [{ retiredAt: null }, { retiredAt: { [Op.gt]: new Date() } }] },
      order: [['createdAt', 'ASC'], ['kid', 'ASC']],
    });
    const keys = rows.map(toLoaded);
    if (!cache || started > cache.generation) cache = { keys, startedAt, generation: started };
    return cache.keys;
  }

  /**
   * One database read at a time, however many requests ask together. `fresh` starts a read that begins now, for a
   * caller that has just written: a read already under way may have begun before the write.
   */
  function reload(fresh = false): Promise<LoadedKey[]> {
    if (fresh || !loading) {
      pendingStartedAt = Date.now();
      const read: Promise<LoadedKey[]> = load().finally(() => { if (loading === read) loading = undefined; });
      loading = read;
    }
    return loading;
  }

  /**
   * The keys, re-read when older than the TTL. `refresh` asks for a read that starts after the call: a token names a
   * kid we lack, perhaps a key another host made just now. Within the rate limit the call waits for the window's
   * end rather than refusing, and every caller waiting shares one read.
   */
  async function current(refresh = false): Promise<LoadedKey[]> {
    const askedAt = Date.now();
    const age = cache ? askedAt - cache.startedAt : Infinity;
    if (age > CACHE_TTL_MS) return reload();
    if (!refresh) return cache!.keys;
    for (;;) {
      if (loading && pendingStartedAt >= askedAt) return loading;
      if (cache!.startedAt >= askedAt) return cache!.keys;
      const wait = pendingStartedAt + MIN_REFRESH_INTERVAL_MS - Date.now();
      if (wait <= 0) return reload(true);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  async function create(retirePrevious: boolean): Promise<LoadedKey> {
    const { publicKey, privateKey } = await generateKeyPair('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    const { n, e } = publicKey.export({ format: 'jwk' });
    if (!n || !e) throw new Error('RSA key export lacks n or e');
    const kid = thumbprint(n, e);
    const jwk: PublicJwk = { kty: 'RSA', kid, use: 'sig', alg: 'RS256', n, e };
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const now = new Date();
    const sealedPrivateKey = secretBox.seal(pem);
    await SigningKey.sequelize!.transaction(async (transaction) => {
      if (retirePrevious) {
        await SigningKey.update(
          { retiredAt: new Date(now.getTime() + ROTATION_GRACE_MS) },
          { where: { retiredAt: null }, transaction },
        );
      }
      await SigningKey.create(
        { kid, privateKey: sealedPrivateKey, publicJwk: JSON.stringify(jwk), createdAt: now, retiredAt: null },
        { transaction },
      );
    });
    privatePems.set(kid, pem);
    await reload(true);
    return { kid, jwk, sealedPrivateKey, createdAt: now, retiredAt: null };
  }

  /**
   * Single-flight within this process; two processes racing each keep their own key, and the JWKS lists both. The
   * made key is answered directly, so its caller does not depend on what a concurrent read put in the cache.
   */
  function createOnce(retirePrevious: boolean): Promise<LoadedKey> {
    creating ??= create(retirePrevious).finally(() => { creating = undefined; });
    return creating;
  }

  function privatePem(key: LoadedKey): string {
    let pem = privatePems.get(key.kid);
    if (pem === undefined) {
      pem = secretBox.open(key.sealedPrivateKey);
      privatePems.set(key.kid, pem);
    }
    return pem;
  }

  const newestActive = (keys: LoadedKey[]) => keys.filter((k) => k.retiredAt === null).at(-1);

  /** The newest active key, made now if the database has none (first start). */
  async function ensureActive(keys: LoadedKey[]): Promise<LoadedKey> {
    let key = newestActive(keys);
    if (!key) {
      // Another process may have made one since our last read.
      key = newestActive(await reload());
      key ??= await createOnce(false);
    }
    return key;
  }

  return {
    async activeKey() {
      const key = await ensureActive(await current());
      return { kid: key.kid, privateKeyPem: privatePem(key) };
    },
    async jwks(options) {
      let keys = await current(options?.refresh ?? false);
      // A JWKS is never empty: clients that fetch it before the first login would otherwise cache "no keys".
      if (!newestActive(keys)) {
        const made = await ensureActive(keys);
        keys = cache!.keys.some((k) => k.kid === made.kid) ? cache!.keys : [...cache!.keys, made];
      }
      return { keys: keys.map((k) => ({ ...k.jwk })) };
    },
    async rotate() {
      await createOnce(true);
    },
  };
}

/**
 * A start-up check: the newest signing key in the database opens with this process's encryption key (`source` names
 * it). Replicas that do not share one would otherwise start and then fail every sign-in.
 */
export async function checkSigningKeysOpen(models: Pick<Models, 'SigningKey'>, secretBox: SecretBox, source: string): Promise<void> {
  const row = await models.SigningKey.findOne({ where: { retiredAt: null }, order: [['createdAt', 'DESC']] });
  if (!row) return;
  try {
    secretBox.open(row.privateKey);
  } catch {
    throw new ConfigError(`${source} does not open the token signing keys stored in the database, which were sealed with another key: give every instance on this database that key as ENCRYPTION_KEY (an instance without ENCRYPTION_KEY made DATA_DIR/secret.key)`);
  }
}

function toLoaded(row: SigningKeyRow): LoadedKey {
  const stored = JSON.parse(row.publicJwk) as Partial<PublicJwk>;
  if (typeof stored.n !== 'string' || typeof stored.e !== 'string') throw new Error(`Signing key ${row.kid} has no RSA public key`);
  // Re-importing proves the stored JWK is a usable RSA public key before it is ever published.
  createPublicKey({ key: { kty: 'RSA', n: stored.n, e: stored.e }, format: 'jwk' });
  return {
    kid: row.kid,
    jwk: { kty: 'RSA', kid: row.kid, use: 'sig', alg: 'RS256', n: stored.n, e: stored.e },
    sealedPrivateKey: row.privateKey,
    createdAt: row.createdAt,
    retiredAt: row.retiredAt,
  };
}

/** RFC 7638 thumbprint: a kid derived from the key itself, so it is unique without coordination. */
function thumbprint(n: string, e: string): string {
  return createHash('sha256').update(JSON.stringify({ e, kty: 'RSA', n })).digest('base64url');
}
