/**
 * What the fuzzer points at: a tenant of its own whose admin is also SUPER_ADMIN (so /tenants is exercised), a
 * few rows per collection made over HTTP, and a second tenant whose rows are the "foreign uids". Rows are made
 * from the `example` of each collection's create schema in the OpenAPI document, with unique fields suffixed and
 * references pointed at existing rows — a new collection gets fixtures without code here.
 * The pools are live: a fuzzed DELETE that succeeds is replaced, so later requests still hit existing rows.
 */
import { randomBytes } from 'node:crypto';
import { createTenant, createUser, passwordToken, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { insertPrincipal } from '../support/access-world';
import { accessResource } from '../../handlers/application-access';
import { grantResource } from '../../handlers/application-access-grants';
import { resourceByCollection } from '../../handlers/resources';
import { deref, flatten, isReference, ownObject, refTarget, spec, type Schema } from './spec-arbitraries';
import { rawClient, type RawClient } from './raw-client';

const POOL_MIN = 3;
const POOL_MAX = 12;

/**
 * Collections whose creation needs more than its references: an access request needs the stream configured in the
 * environment (a stream config, made first) and the application able to authenticate there (a principal, put in
 * through the models until principals have an API). A 422 there tries the next rows, as a 409 does.
 */
const PRECONDITIONS: Record<string, string[]> = { application_access_grants: ['stream_configs'] };

/** handlers/resources.ts does not list the access collections; their descriptors are taken from their handlers. */
const descriptorOf = (collection: string) => resourceByCollection(collection) ?? [accessResource, grantResource].find((r) => r.collection === collection);

/** Collections with `POST /{c}`: the ones the fuzzer can make rows of, in dependency order. */
function creatable(): Array<{ collection: string; schema: Schema }> {
  const out: Array<{ collection: string; schema: Schema; deps: string[] }> = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    const m = /^\/([a-z_]+)$/.exec(path);
    const body = ops.post?.requestBody?.content?.['application/json']?.schema;
    if (!m || !body) continue;
    const flat = flatten(body);
    const deps = Object.entries(flat.properties ?? {}).filter(([, p]) => isReference(p as Schema)).map(([k]) => refTarget(k));
    deps.push(...(PRECONDITIONS[m[1]] ?? []));
    out.push({ collection: m[1], schema: body, deps });
  }
  // Referenced collections first: environments need instances and groups, groups need users…
  const ordered: typeof out = [];
  while (out.length > 0) {
    const i = out.findIndex((c) => c.deps.every((d) => d === c.collection || ordered.some((o) => o.collection === d) || !out.some((x) => x.collection === d)));
    ordered.push(...out.splice(i < 0 ? 0 : i, 1));
  }
  return ordered;
}

/** Makes a value unique while keeping it inside its field's pattern and length. */
function uniquify(value: string, s: Schema): string {
  const h = randomBytes(3).toString('hex').replace(/^[0-9]/, 'a');
  if (value.includes('@')) return value.replace('@', `-${h}@`);
  const sep = s.pattern && !new RegExp(s.pattern).test(`${value}-${h}`) ? '' : '-';
  const joined = `${value}${sep}${h}`.slice(-(s.maxLength ?? 255));
  return s.pattern && !new RegExp(s.pattern).test(joined) ? `${value}${h}`.slice(0, s.maxLength ?? 255) : joined;
}

export class Fixtures {
  readonly pools: Record<string, string[]> = {};
  readonly foreign: Record<string, string[]> = {};
  /** Names per collection (search parameters), taken from the rows made here. */
  readonly names: Record<string, string[]> = {};
  /** The `applicationId`s (a field, not a reference) of the applications made here, for `findByApplicationId`. */
  readonly applicationIds: string[] = [];
  /** Rows the fuzzer must never delete or demote: its own admin and its own tenant. */
  readonly protectedIds = new Set<string>();
  readonly collections = creatable();
  client: RawClient;
  private token = '';
  private mintedAt = 0;

  private constructor(readonly app: TestApp, readonly home: TestTenant, readonly admin: TestUser, readonly other: TestTenant) {
    this.client = rawClient(app.url);
  }

  static async create(app: TestApp): Promise<Fixtures> {
    const home = await createTenant(app, 'fuzz');
    const admin = await createUser(app, home, ['SUPER_ADMIN', 'TENANT_ADMIN'], 'fuzzadmin');
    const other = await createTenant(app, 'fuzz-b');
    const f = new Fixtures(app, home, admin, other);
    f.token = admin.token;
    f.mintedAt = Date.now();
    f.protectedIds.add(admin.user.uid).add(home.tenant.uid);
    for (const { collection } of f.collections) {
      f.pools[collection] = [];
      f.names[collection] = [];
      f.foreign[collection] = [];
    }
    f.pools.users.push(home.admin.user.uid);
    f.pools.tenants.push(home.tenant.uid);
    f.foreign.users.push(other.admin.user.uid);
    for (let i = 0; i < POOL_MIN; i++) {
      await f.uploadSchema();
      await f.uploadSchema(other.admin.token, f.foreign);
    }
    for (const { collection } of f.collections) {
      if (collection === 'application_access_grants') {
        await f.authenticate(home.tenant.uid, f.pools);
        await f.authenticate(other.tenant.uid, f.foreign);
      }
      while (f.pools[collection].length < POOL_MIN) await f.make(collection);
      // Tenants are not foreign to a SUPER_ADMIN: /tenants gets no foreign ids (unknown ones are generated).
      if (collection !== 'tenants') await f.make(collection, other.admin.token, f.foreign);
    }
    return f;
  }

  /** A token younger than a minute (tokens live 300 s; a long run outlives many). */
  async bearer(): Promise<string> {
    if (Date.now() - this.mintedAt > 60_000) {
      this.token = await passwordToken(this.app, this.home.shortName, this.admin.email, this.admin.password);
      this.mintedAt = Date.now();
    }
    return this.token;
  }

  /** One new row of `collection` from its schema example; its uid joins the pool. */
  async make(collection: string, token?: string, into = this.pools, offset = 0): Promise<string> {
    const schema = this.collections.find((c) => c.collection === collection)!.schema;
    const flat = flatten(schema);
    const example = (deref(schema).example ?? flat.example ?? {}) as Record<string, unknown>;
    const body: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(example)) {
      const p = (flat.properties?.[k] ?? {}) as Schema;
      if (isReference(p)) {
        const pool = (into[refTarget(k)] ?? []).filter((u) => !(into === this.pools && this.protectedIds.has(u)));
        // A unique pair of references (a stream config's stream and environment): a 409 retries with the next rows.
        const pick = pool[offset % Math.max(pool.length, 1)] ?? this.pools[refTarget(k)]?.[0];
        body[k] = Array.isArray(v) ? (pick ? [pick] : []) : pick;
      } else if (typeof v === 'string' && (/name|email/i.test(k) || k === 'pluginClass' || k === 'applicationId')) {
        body[k] = uniquify(v, deref(p));
      } else if (v && typeof v === 'object' && !Array.isArray(v) && k === 'admin') {
        const admin = v as Record<string, unknown>;
        body[k] = { ...admin, emailAddress: uniquify(String(admin.emailAddress), {}) };
      } else {
        body[k] = v;
      }
    }
    for (const r of flat.required ?? []) {
      if (body[r] === undefined) throw new Error(`fuzz fixtures: the example of POST /${collection} lacks required ${r}`);
    }
    const res = await this.client.send({
      method: 'POST', path: `${this.app.config.basePath}/${collection}`, body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${token ?? await this.bearer()}`, 'Content-Type': 'application/json' },
    });
    const unmet = res.status === 422 && PRECONDITIONS[collection] !== undefined;
    if ((res.status === 409 || unmet) && offset < POOL_MAX) return this.make(collection, token, into, offset + 1);
    const uid = (res.json as { uid?: string } | undefined)?.uid;
    if (res.status !== 201 || !uid) throw new Error(`fuzz fixtures: POST /${collection} ${JSON.stringify(body)} → ${res.status} ${res.text}`);
    into[collection].push(uid);
    const name = (res.json as Record<string, unknown>).name ?? (res.json as Record<string, unknown>).shortName;
    if (typeof name === 'string' && into === this.pools) this.names[collection].push(name);
    if (collection === 'applications' && typeof body.applicationId === 'string' && into === this.pools) this.applicationIds.push(body.applicationId);
    return uid;
  }

  /**
   * Schemas have no `POST /schemas`: they come from `POST /schemas/upload`, an AVRO record of a fresh name, whose
   * schema and first version join the pools (streams reference them).
   */
  async uploadSchema(token?: string, into = this.pools): Promise<void> {
    const name = `Fuzz${randomBytes(4).toString('hex')}`;
    const schema = JSON.stringify({ type: 'record', name, namespace: 'io.fuzz', fields: [{ name: 'id', type: 'long' }] });
    const res = await this.client.send({
      method: 'POST', path: `${this.app.config.basePath}/schemas/upload`, body: JSON.stringify({ schema, version: '1.0.0' }),
      headers: { Authorization: `Bearer ${token ?? await this.bearer()}`, 'Content-Type': 'application/json' },
    });
    const out = res.json as { schemaUid?: string; id?: string } | undefined;
    if (res.status !== 201 || !out?.schemaUid || !out.id) throw new Error(`fuzz fixtures: schema upload → ${res.status} ${res.text}`);
    (into.schemas ??= []).push(out.schemaUid);
    (into.schema_versions ??= []).push(out.id);
    if (into === this.pools) (this.names.schemas ??= []).push(`io.fuzz.${name}`);
  }

  /**
   * A principal for every application of the pool in every environment of the pool (through the models: no API
   * yet), so that access requests of the fixtures and many fuzzed ones meet their preconditions. Principals block
   * the deletion of their application and environment; rows the fuzzer creates later have none.
   */
  async authenticate(tenantUid: string, into: Record<string, string[]>): Promise<void> {
    for (const application of into.applications ?? []) {
      for (const environment of into.environments ?? []) await insertPrincipal(this.app, tenantUid, application, environment);
    }
  }

  /** A row the fuzzer created with a 201 joins its pool (capped), so writes also hit rows of odd content. */
  adopt(collection: string, uid: string): void {
    const pool = this.pools[collection];
    if (pool && !pool.includes(uid) && pool.length < POOL_MAX) pool.push(uid);
  }

  /** After a successful DELETE: forget the row and make another so the pool never runs dry. */
  async deleted(collection: string, uid: string): Promise<void> {
    const pool = this.pools[collection];
    if (!pool || !pool.includes(uid)) return;
    // Not every DELETE deletes: cancelling an access grant keeps it (Cancelled). Such a row stays in the pool.
    const still = await this.client.send({
      method: 'GET', path: `${this.app.config.basePath}/${collection}/${uid}`, headers: { Authorization: `Bearer ${await this.bearer()}` },
    });
    if (still.status === 200) return;
    pool.splice(pool.indexOf(uid), 1);
    if (pool.filter((u) => !this.protectedIds.has(u)).length >= POOL_MIN) return;
    if (collection === 'schemas' || collection === 'schema_versions') await this.uploadSchema();
    else await this.make(collection);
  }

  /**
   * Uids of a collection the fuzzer may target with `method`. Its own admin is in no pool at all (so never
   * demoted, renamed or deleted); its own tenant may be read and edited but never deleted.
   */
  targets(collection: string, method: string): string[] {
    const pool = this.pools[collection] ?? [];
    return method === 'DELETE' ? pool.filter((u) => !this.protectedIds.has(u)) : pool;
  }

  /** The association rels of a collection and the collection each points into (from the resource descriptors). */
  rels(collection: string): Array<{ rel: string; target: string }> {
    return (descriptorOf(collection)?.associations ?? []).map((a) => ({ rel: a.rel, target: a.target().collection }));
  }

  /** Tenants whose rows the fingerprint covers: the fuzzer's, the foreign one and those it created. */
  tenantScope(): { fixed: string[]; email: string } {
    return { fixed: [this.home.tenant.uid, this.other.tenant.uid], email: this.admin.email };
  }

  close(): void { this.client.close(); }
}

export { ownObject };
