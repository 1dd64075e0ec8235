/**
 * Issue 31: the document's request examples are valid requests. Every operation that documents a request example
 * (a body example of a media type, or parameter examples) is sent, built from its examples, to the real service by
 * a caller who is TENANT_ADMIN (and SUPER_ADMIN, so the tenant operations reach validation too), with
 * `Prefer: handling=strict`, under which a body field the document does not declare is refused like a wrong type.
 *
 * The verdict is "not refused for its shape". The service refuses a shape with 400 in two places, and both count:
 * the request validator (server/validation-errors.ts: a type, a format, a pattern, a bound, a required field, an
 * enum, an unknown field under strict handling) and the handlers' own checks of a value (a malformed e-mail
 * address, an unparsable certificate, a sort field the collection does not have). So every 400 fails, except those
 * `aboutTheWorld` recognises exactly: each field entry a reference this tenant does not hold (examples hold
 * placeholder uids, so most references are unknown here), or the deployment state machine's refusal. 403, 404,
 * 405 (a to-many association cleared at once), 409, 412 and 422 are about the world or the resource's rules, not
 * the request's shape, and pass; a 5xx never does.
 *
 * The service judges a body only once the target is found and the caller allowed (docs/contract.md §2: 404, 403
 * and 412 come first), so the path's `{id}` names a real item of the collection (support/example-world.ts) rather
 * than the placeholder, and an example `If-Match` that answers 412 is sent again without it. A body that reaches
 * an unknown reference has passed validation, which comes first. Other parameters are their examples, or, for a
 * required one without, a value its schema allows. Because the service may still stop before the body (a
 * required parent gone, a state answered first), each example is also checked on its own: it must validate
 * against its schema with Ajv and declare every field it sends.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unknownFields, fieldName } from '../../server/unknown-fields';
import type { Schema } from '../../core/spec';
import { INVALID_ACTION_FOR_STATE } from '../../core/rules/deployment-state';
import { resources } from '../../handlers/resources';
import { createUser, startWithTenant, type TestApp, type TestUser } from '../support/app';
import { call, type CallResult } from '../support/http';
import { startFakeAiven, type FakeAiven } from '../support/fake-aiven';
import { certificateKit, type CertificateKit } from '../support/certificates';
import { documentedOperations, type DocumentedExample, type DocumentedParameter } from '../support/documented-examples';
import { exampleWorld, type World } from '../support/example-world';

/** The item kinds a body reference may name (`unknown group`, `unknown schemaVersion`…). */
const ITEM_RELS = new Set(resources.map((r) => r.itemRel));

/**
 * The 400s about the world, not the request's shape. A reference this tenant does not hold: every field-level
 * entry is `unknown <kind>` (handlers/_lib/store.ts), which the validator never writes (its unknown *field* says
 * `unknown field`). A rule of the deployment state machine (core/rules/deployment-state.ts): the walk starts the
 * world's deployment (operateApplicationDeployment's example is START), and a running one is not deleted. A new
 * kind of refusal of a documented example fails the test until the example is fixed or the refusal judged here.
 */
function aboutTheWorld(body: any): boolean {
  const entries = Array.isArray(body?.subErrors) ? body.subErrors as Array<{ message?: unknown }> : [];
  if (entries.length > 0 && entries.every((e) => typeof e.message === 'string' && ITEM_RELS.has(/^unknown (\w+)$/.exec(e.message)?.[1] ?? ''))) return true;
  return body?.subErrors === null && body.errors?.length === 1 && body.errors[0] === INVALID_ACTION_FOR_STATE;
}

const operations = documentedOperations();
const examples = operations.flatMap((o) => o.examples);

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const compiled = new Map<Schema, ValidateFunction>();
function schemaProblems(schema: Schema, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** A value for a required parameter the document gives no example: what its schema allows first. */
function filled(p: DocumentedParameter): unknown {
  if (p.example !== undefined) return p.example;
  const s = p.schema;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return true;
  return '0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f';
}

interface Built { path: string; headers: Record<string, string>; raw?: string }

function build(ex: DocumentedExample, world: World): Built {
  const collection = ex.template.split('/')[1];
  const segments = ex.template.split('/').map((segment, i) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (name === undefined) return segment;
    // The item right after the collection is a real one, so the body is judged (see the header comment).
    if (i === 2 && world[collection] !== undefined) return world[collection];
    return encodeURIComponent(String(filled(ex.parameters.find((p) => p.in === 'path' && p.name === name)!)));
  });
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of ex.parameters) {
    if (p.example === undefined && !p.required) continue;
    const value = filled(p);
    if (p.in === 'query') for (const v of Array.isArray(value) ? value : [value]) query.append(p.name, String(v));
    if (p.in === 'header') headers[p.name] = String(value);
  }
  let raw: string | undefined;
  if (ex.body) {
    headers['Content-Type'] = ex.body.mediaType;
    headers.Prefer = 'handling=strict';
    const v = ex.body.value;
    raw = ex.body.mediaType === 'text/uri-list' ? (Array.isArray(v) ? v.join('\n') : String(v)) : JSON.stringify(v);
  }
  const search = query.toString();
  return { path: `${segments.join('/')}${search ? `?${search}` : ''}`, headers, raw };
}

const label = (ex: DocumentedExample) => `${ex.operationId} ${ex.method} ${ex.template}${ex.body ? ` ${ex.body.mediaType} ${ex.body.label}` : ' (parameters)'}`;

/** Why the answer is a refusal of the request's shape, or undefined when it is not one. */
function shapeRefusal(res: CallResult): string | undefined {
  if (res.status >= 500) return `${res.status} ${res.text}`;
  if (res.status !== 400 || aboutTheWorld(res.body)) return undefined;
  return `400 ${res.text}`;
}

let app: TestApp;
let caller: TestUser;
let world: World;
let fakeAiven: FakeAiven;
let kit: CertificateKit;
const sent = new Map<string, CallResult>();

beforeAll(async () => {
  // The provider examples name an Aiven project; a loopback Aiven that holds it keeps every request here.
  fakeAiven = await startFakeAiven({
    token: '<aiven api token>',
    projects: { 'acme-streaming': [{ name: 'kafka-prod', type: 'kafka', components: [{ component: 'kafka', host: 'kafka-prod.example.test', port: 9092 }], topics: [{ name: 'orders', partitions: 3, replication: 2 }, { name: 'payments', partitions: 3, replication: 2 }] }] },
  });
  let t;
  ({ app, t } = await startWithTenant('examples', { aivenApiUrl: fakeAiven.url }));
  caller = await createUser(app, t, ['TENANT_ADMIN', 'SUPER_ADMIN'], 'examples');
  kit = certificateKit();
  world = await exampleWorld(app, caller.token, caller.user.uid, kit.leaf('/C=NL/O=Example/CN=example-app').chain);
}, 120_000);
afterAll(async () => {
  kit?.cleanup();
  await app?.stop();
  await fakeAiven?.close();
});

/** Reads and writes first, deletes last (they would take the world's items away), those with a body before. */
const rank = (ex: DocumentedExample) => (ex.method !== 'DELETE' ? 0 : ex.body ? 1 : 2);

describe('documented examples are valid requests', () => {
  it('sends every documented example; none is refused for its shape', async () => {
    const refusals: string[] = [];
    for (const ex of [...examples].sort((a, b) => rank(a) - rank(b))) {
      const { path, headers, raw } = build(ex, world);
      let res = await call(app, ex.method, path, { token: caller.token, headers, raw });
      // An example ETag names a version this world's item does not have: a state, sent again without it.
      if (res.status === 412) {
        const { 'If-Match': _m, 'If-None-Match': _n, ...rest } = headers;
        res = await call(app, ex.method, path, { token: caller.token, headers: rest, raw });
      }
      sent.set(label(ex), res);
      const why = shapeRefusal(res);
      if (why) refusals.push(`${label(ex)}: ${ex.method} ${path} → ${why}`);
    }
    expect(refusals).toEqual([]);
  }, 300_000);

  it.each(examples.map((ex) => [label(ex), ex] as const))('%s matches its schema and declares every field it sends', (_name, ex) => {
    const problems: string[] = [];
    for (const p of ex.parameters) {
      if (p.example !== undefined) problems.push(...schemaProblems(p.schema, p.example).map((m) => `${p.in} ${p.name}: ${m}`));
    }
    if (ex.body) {
      problems.push(...schemaProblems(ex.body.schema, ex.body.value).map((m) => `body ${m}`));
      problems.push(...unknownFields(ex.body.schema, ex.body.value).map((f) => `body: ${fieldName(f)} is not declared`));
    }
    expect(problems).toEqual([]);
  });

  it('covered every operation that documents a body example', () => {
    const withBodyExample = operations.filter((o) => o.examples.some((e) => e.body)).map((o) => o.operationId);
    const sentBodies = new Set(examples.filter((e) => e.body && sent.has(label(e))).map((e) => e.operationId));
    expect(withBodyExample.filter((id) => !sentBodies.has(id))).toEqual([]);
    expect(sentBodies.size).toBe(withBodyExample.length);
    // Every operation that takes a body documents one, so none escapes the walk.
    expect(operations.filter((o) => o.hasBody && !o.examples.some((e) => e.body)).map((o) => o.operationId)).toEqual([]);
  });
});
