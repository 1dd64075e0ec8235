/**
 * Every request example the OpenAPI document shows is a request the service takes as well-formed: a reader or a
 * generator copying it gets an answer about its data, never a refusal of its shape.
 *
 * For each operation with a JSON body, every example of it (the media type's `example` and `examples`, else the body
 * schema's own `example`) is
 * 1. checked against the document itself: it matches the body schema (Ajv, as the service's validator reads it) and
 *    sends no field the schema does not declare (the `Ignored-Fields` walk);
 * 2. sent to the running service as a tenant admin with `Prefer: handling=strict`, at a row that exists (the fuzz
 *    fixtures make one of every collection), so the body is read and validated rather than the target refused.
 *    Examples name placeholder uids, so an answer may well be 404, or 400 for a reference that does not exist in this
 *    tenant (a sub-error at a reference field, or `unknown <kind>`), 400 without sub-errors for a state rule (no
 *    approved grant yet), 409/422 for a state or a clash, 502 from an operation that calls a provider (the body
 *    passed every check to get there; the provider here is a closed port). What must not come is a 400 whose
 *    sub-errors concern the shape (a type, length, pattern, enum or required field; an unknown field), a 400 for
 *    the body as a whole, or any other 5xx.
 * A certificate cannot be written out whole in an example: `principal` examples abbreviate it (`MIIC…`), so the
 * service judges its content; that field is exempt, by name, from the sending check (not from the first).
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_BODY } from '../../core/errors';
import { deref, spec, type Schema } from '../../core/spec';
import { fieldName, unknownFields } from '../../server/unknown-fields';
import { startTestApp, type TestApp } from '../support/app';
import { call } from '../support/http';
import { Fixtures } from '../fuzz/fixtures';
import { flatten, isReference, objectSchemaOf } from '../fuzz/spec-arbitraries';

interface Example { operationId: string; method: string; path: string; name: string; body: unknown; schema: Schema }

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'x-reference' });
ajv.addKeyword({ keyword: 'example' });

/** The example a schema carries itself, or one of its allOf members carries. */
function schemaExample(schema: Schema): unknown {
  const s = deref(schema);
  if (s?.example !== undefined) return s.example;
  return (s?.allOf ?? []).map((m: Schema) => deref(m)?.example).find((e: unknown) => e !== undefined);
}

function documentedExamples(): Example[] {
  const out: Example[] = [];
  for (const [path, item] of Object.entries<Schema>(spec.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      if (!op?.operationId || !op.requestBody) continue;
      // The schema as written (its `$ref`s name references); examples from the dereferenced view.
      const raw = op.requestBody.content?.['application/json']?.schema;
      const media = deref(op.requestBody).content?.['application/json'];
      if (!media?.schema || !raw) continue;
      const named: [string, unknown][] = [
        ...(media.example !== undefined ? [['example', media.example] as [string, unknown]] : []),
        ...Object.entries<Schema>(media.examples ?? {}).map(([name, e]) => [name, deref(e).value] as [string, unknown]),
      ];
      if (named.length === 0) {
        const fromSchema = schemaExample(raw);
        if (fromSchema !== undefined) named.push(['schema example', fromSchema]);
      }
      for (const [name, body] of named) out.push({ operationId: op.operationId, method: method.toUpperCase(), path, name, body, schema: raw });
    }
  }
  // Deletions and the tenant's own replacement last, so that earlier examples still find their rows and realm.
  const late = (e: Example) => (e.method === 'DELETE' ? 2 : 0) + (e.path.startsWith('/tenants') ? 1 : 0);
  return out.sort((a, b) => late(a) - late(b));
}

const examples = documentedExamples();
let app: TestApp;
let fixtures: Fixtures;

beforeAll(async () => {
  app = await startTestApp({ aivenApiUrl: 'http://127.0.0.1:9', confluentCloudApiUrl: 'http://127.0.0.1:9', providerTimeoutMs: 2000 });
  fixtures = await Fixtures.create(app);
}, 180_000);
afterAll(async () => app?.stop());

/** The path with `{id}` (and `{propertyId}`) at rows that exist and `{rel}`/others at their first declared value. */
function concretePath(e: Example): string {
  const op = spec.paths[e.path][e.method.toLowerCase()];
  const params = [...(spec.paths[e.path].parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) => deref(p));
  const collection = e.path.split('/')[1];
  return e.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'id') return fixtures.pools[collection]?.[0] ?? 'missing';
    const p = params.find((x: Schema) => x.name === name && x.in === 'path');
    return String(p?.example ?? p?.schema?.enum?.[0] ?? p?.schema?.example ?? name);
  });
}

/** The reference fields of a body schema (top level), whose refusals are about data, not shape. */
function referenceFields(schema: Schema): Set<string> {
  const flat = flatten(objectSchemaOf(schema));
  return new Set(Object.entries<Schema>(flat?.properties ?? {}).filter(([, p]) => isReference(p)).map(([k]) => k));
}

describe('the documented request examples', () => {
  it('cover every operation that documents a JSON body example', () => {
    expect(examples.length).toBeGreaterThan(50);
  });

  it.each(examples.map((e) => [`${e.method} ${e.path} (${e.operationId}, ${e.name})`, e] as const))('%s', async (_, e) => {
    const schema = deref(e.schema);
    const validate = ajv.compile(schema);
    expect(validate(e.body) ? [] : validate.errors, 'the example matches its schema').toEqual([]);
    expect(unknownFields(schema, e.body).map(fieldName), 'the example declares every field it sends').toEqual([]);

    const res = await call(app, e.method, concretePath(e), { token: await fixtures.bearer(), body: e.body, headers: { Prefer: 'handling=strict' } });
    const declared = Object.keys(spec.paths[e.path][e.method.toLowerCase()].responses);
    if (res.status >= 500) expect([res.status, declared.includes('502')], res.text).toEqual([502, true]);
    if (res.status === 400) {
      expect(res.body?.errors, 'the body as a whole refused').not.toContain(BAD_BODY);
      const references = referenceFields(e.schema);
      // An association body's targets are the association itself.
      if (e.path.endsWith('/{rel}')) references.add(concretePath(e).split('/').at(-1)!);
      const shape = ((res.body?.subErrors ?? []) as { field: string; message: string }[])
        .filter((s) => !references.has(s.field.split(/[.[]/)[0]) && !/^unknown (?!field)/.test(s.message) && s.field !== 'principal');
      expect(shape, 'refused for its shape').toEqual([]);
    }
  });
});
