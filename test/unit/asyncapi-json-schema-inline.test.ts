/**
 * inlineLocalRefs (docs/contract.md §9, JSON_SCHEMA payloads): every local `$ref` replaced by its target, `$schema`/`$id`
 * and the root's definitions dropped; anything that cannot be inlined completely (recursive, remote, dangling, too
 * large, or a `$ref` in data) is reported as not inlinable and never half-inlined.
 */
import { describe, expect, it } from 'vitest';
import { ExactNumber, parseExactJson } from '../../asyncapi/exact-json';
import { inlineLocalRefs, MAX_INLINED_NODES, type Inlined } from '../../asyncapi/json-schema-inline';

const inlined = (document: unknown): unknown => {
  const result = inlineLocalRefs(document);
  if (!result.ok) throw new Error(`expected ok, got: ${result.reason}`);
  return result.schema;
};
const refused = (document: unknown): string => {
  const result = inlineLocalRefs(document);
  if (result.ok) throw new Error(`expected not ok, got: ${JSON.stringify(result.schema)}`);
  return result.reason;
};
/** Whether a `$ref` key is left anywhere in a value. */
const anyRef = (v: unknown): boolean =>
  Array.isArray(v) ? v.some(anyRef) : typeof v === 'object' && v !== null ? Object.entries(v).some(([k, x]) => k === '$ref' || anyRef(x)) : false;

describe('local references are inlined', () => {
  it('#/definitions/… and #/$defs/…', () => {
    expect(inlined({
      type: 'object',
      properties: { a: { $ref: '#/definitions/A' }, b: { $ref: '#/$defs/B' } },
      definitions: { A: { type: 'string', minLength: 1 } },
      $defs: { B: { type: 'integer' } },
    })).toEqual({ type: 'object', properties: { a: { type: 'string', minLength: 1 }, b: { type: 'integer' } } });
  });

  it('a reference to a definition that references another definition', () => {
    expect(inlined({
      properties: { home: { $ref: '#/definitions/address' } },
      definitions: {
        address: { type: 'object', properties: { country: { $ref: '#/definitions/country' }, geo: { $ref: '#/$defs/point' } } },
        country: { type: 'string', enum: ['NL', 'DE'] },
        coordinate: { type: 'number' },
      },
      $defs: { point: { type: 'array', items: { $ref: '#/definitions/coordinate' } } },
    })).toEqual({
      properties: { home: { type: 'object', properties: { country: { type: 'string', enum: ['NL', 'DE'] }, geo: { type: 'array', items: { type: 'number' } } } } },
    });
  });

  it('a definition used many times (not recursive) is inlined at every use', () => {
    const a = { type: 'string', format: 'email' };
    expect(inlined({
      properties: { to: { $ref: '#/definitions/a' }, cc: { type: 'array', items: { $ref: '#/definitions/a' } }, bcc: { $ref: '#/definitions/a' } },
      definitions: { a },
    })).toEqual({ properties: { to: a, cc: { type: 'array', items: a }, bcc: a } });
  });

  it('a reference into another part of the document, not only definitions', () => {
    expect(inlined({ properties: { a: { $ref: '#/properties/b' }, b: { type: 'string' } } }))
      .toEqual({ properties: { a: { type: 'string' }, b: { type: 'string' } } });
  });

  it('a reference beside other keywords becomes allOf with the siblings kept', () => {
    expect(inlined({
      properties: { shipTo: { $ref: '#/definitions/address', description: 'Where it goes', nullable: false } },
      definitions: { address: { type: 'object', required: ['street'] } },
    })).toEqual({
      properties: { shipTo: { allOf: [{ type: 'object', required: ['street'] }], description: 'Where it goes', nullable: false } },
    });
  });

  it('siblings of a reference are inlined too', () => {
    expect(inlined({
      properties: { x: { $ref: '#/definitions/A', properties: { y: { $ref: '#/definitions/B' } } } },
      definitions: { A: { type: 'object' }, B: { type: 'boolean' } },
    })).toEqual({ properties: { x: { allOf: [{ type: 'object' }], properties: { y: { type: 'boolean' } } } } });
  });

  it('a reference beside an allOf keeps both the target and the allOf members', () => {
    // {$ref: A, allOf: [M]} requires A and M; the inlined form must still require both.
    const schema = inlined({
      properties: { code: { $ref: '#/definitions/A', allOf: [{ minLength: 3 }] } },
      definitions: { A: { type: 'string', maxLength: 8 } },
    }) as any;
    const code = JSON.stringify(schema.properties.code);
    expect(code).toContain('"maxLength":8');
    expect(code).toContain('"minLength":3');
  });

  it('JSON-pointer escapes: ~1 is /, ~0 is ~, ~01 is ~1', () => {
    expect(inlined({
      properties: { a: { $ref: '#/definitions/a~1b' }, b: { $ref: '#/definitions/m~0n' }, c: { $ref: '#/definitions/x~01' } },
      definitions: { 'a/b': { type: 'string' }, 'm~n': { type: 'integer' }, 'x~1': { type: 'null' } },
    })).toEqual({ properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'null' } } });
  });

  it('percent-encoded fragments are decoded first', () => {
    expect(inlined({
      properties: { a: { $ref: '#/definitions/with%20space' }, b: { $ref: '#/definitions/100%25' }, c: { $ref: '#/definitions/%C3%A4' } },
      definitions: { 'with space': { type: 'string' }, '100%': { type: 'number' }, ä: { type: 'boolean' } },
    })).toEqual({ properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' } } });
  });

  it('a malformed percent-encoding is a dangling reference, not a crash', () => {
    expect(refused({ properties: { a: { $ref: '#/definitions/%ZZ' } }, definitions: { '%ZZ': { type: 'string' } } })).toContain('#/definitions/%ZZ');
  });

  it('references into arrays by index', () => {
    expect(inlined({
      properties: { a: { $ref: '#/definitions/list/0' }, b: { $ref: '#/definitions/list/1' }, c: { $ref: '#/anyOf/1' } },
      anyOf: [{ type: 'object' }, { minProperties: 1 }],
      definitions: { list: [{ type: 'string' }, { type: 'number' }] },
    })).toEqual({
      properties: { a: { type: 'string' }, b: { type: 'number' }, c: { minProperties: 1 } },
      anyOf: [{ type: 'object' }, { minProperties: 1 }],
    });
  });

  it.each(['#/definitions/list/01', '#/definitions/list/2', '#/definitions/list/-', '#/definitions/list/x'])('a bad array index %s is dangling', (ref) => {
    expect(refused({ properties: { a: { $ref: ref } }, definitions: { list: [{ type: 'string' }, { type: 'number' }] } })).toContain(ref);
  });

  it('a root $ref is replaced by its target', () => {
    expect(inlined({ $ref: '#/definitions/A', definitions: { A: { type: 'object', properties: { b: { $ref: '#/definitions/B' } } }, B: { type: 'string' } } }))
      .toEqual({ type: 'object', properties: { b: { type: 'string' } } });
  });

  it('a root $ref beside root keywords: allOf plus the keywords, $schema and definitions still dropped', () => {
    expect(inlined({ $schema: 'http://json-schema.org/draft-07/schema#', $ref: '#/definitions/A', title: 'T', definitions: { A: { type: 'string' } } }))
      .toEqual({ allOf: [{ type: 'string' }], title: 'T' });
  });
});

describe('what is dropped and what is kept', () => {
  it('$schema, $id, definitions and $defs of the root are dropped', () => {
    expect(inlined({
      $schema: 'http://json-schema.org/draft-07/schema#', $id: 'https://example.com/s.json', title: 'S', type: 'object',
      definitions: { unused: { type: 'string' } }, $defs: { unused: { type: 'number' } },
    })).toEqual({ title: 'S', type: 'object' });
  });

  it('an unused recursive root definition does not matter: it is dropped, not walked', () => {
    expect(inlined({ type: 'string', definitions: { Loop: { $ref: '#/definitions/Loop' } } })).toEqual({ type: 'string' });
  });

  it('properties NAMED $id, $schema, definitions or $defs are kept', () => {
    const properties = { $id: { type: 'string' }, $schema: { type: 'string' }, definitions: { type: 'array' }, $defs: { type: 'object' } };
    expect(inlined({ type: 'object', properties, required: ['$id', 'definitions'] })).toEqual({ type: 'object', properties, required: ['$id', 'definitions'] });
  });

  it('a property NAMED $ref is not inlinable: AsyncAPI parsers take any $ref key for a reference', () => {
    const result = inlineLocalRefs({ type: 'object', properties: { $ref: { type: 'string' }, id: { type: 'string' } } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/\$ref key/);
  });

  it('references below a nested $id are not followed (they mean that resource, not the document)', () => {
    const result = inlineLocalRefs({
      properties: { a: { $ref: '#/definitions/A' } },
      definitions: { A: { $id: 'https://example.com/a.json', properties: { b: { $ref: '#/definitions/B' } }, definitions: { B: { type: 'string' } } }, B: { type: 'integer' } },
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/nested \$id/);
    expect(inlineLocalRefs({ properties: { a: { $ref: '#/definitions/A' } }, definitions: { A: { $id: 'https://example.com/a.json', type: 'string' } } }))
      .toEqual({ ok: true, schema: { properties: { a: { $id: 'https://example.com/a.json', type: 'string' } } } });
  });

  it('booleans as schemas, at the root and anywhere a schema goes', () => {
    expect(inlined(true)).toBe(true);
    expect(inlined(false)).toBe(false);
    expect(inlined({
      properties: { any: true, none: false, ref: { $ref: '#/definitions/T' } },
      additionalProperties: false, items: true, not: false,
      definitions: { T: true },
    })).toEqual({ properties: { any: true, none: false, ref: true }, additionalProperties: false, items: true, not: false });
  });

  it('items as an array (draft-07 tuple) with additionalItems', () => {
    expect(inlined({
      type: 'array', items: [{ $ref: '#/definitions/S' }, { type: 'integer' }, true], additionalItems: { $ref: '#/definitions/S' },
      definitions: { S: { type: 'string' } },
    })).toEqual({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }, true], additionalItems: { type: 'string' } });
  });

  it('dependencies: property lists kept as they are, schemas inlined', () => {
    expect(inlined({
      dependencies: { card: ['billing', 'cvc'], vat: { $ref: '#/definitions/Vat' } },
      definitions: { Vat: { required: ['country'] } },
    })).toEqual({ dependencies: { card: ['billing', 'cvc'], vat: { required: ['country'] } } });
  });

  it('every subschema keyword is followed', () => {
    const S = { type: 'string' };
    const r = (name = 'S') => ({ $ref: `#/definitions/${name}` });
    expect(inlined({
      allOf: [r()], anyOf: [r()], oneOf: [r()], prefixItems: [r()], not: r(), if: r(), then: r(), else: r(),
      contains: r(), propertyNames: r(), additionalProperties: r(), unevaluatedProperties: r(), unevaluatedItems: r(),
      contentSchema: r(), patternProperties: { '^x': r() }, dependentSchemas: { a: r() }, items: r(),
      definitions: { S },
    })).toEqual({
      allOf: [S], anyOf: [S], oneOf: [S], prefixItems: [S], not: S, if: S, then: S, else: S,
      contains: S, propertyNames: S, additionalProperties: S, unevaluatedProperties: S, unevaluatedItems: S,
      contentSchema: S, patternProperties: { '^x': S }, dependentSchemas: { a: S }, items: S,
    });
  });

  it('other keywords are copied as they are, exact numbers included', () => {
    const doc = parseExactJson('{"type":"integer","maximum":12345678901234567890,"minimum":-1,"description":"#/definitions/A","required":["$ref"]}');
    const out = inlined(doc) as any;
    expect(out.maximum).toBeInstanceOf(ExactNumber);
    expect(out.maximum.text).toBe('12345678901234567890');
    expect(out).toMatchObject({ type: 'integer', minimum: -1, description: '#/definitions/A', required: ['$ref'] });
  });

  it('a successful result never holds a $ref', () => {
    const out = inlined({
      properties: { a: { $ref: '#/definitions/A' }, b: { items: [{ $ref: '#/$defs/B' }] } },
      definitions: { A: { anyOf: [{ $ref: '#/$defs/B' }, { not: { $ref: '#/$defs/B' } }] } },
      $defs: { B: { type: 'null' } },
    });
    expect(anyRef(out)).toBe(false);
  });
});

describe('what cannot be inlined is refused, never half-inlined', () => {
  it.each([
    ['const', { const: { $ref: '#/definitions/A' } }],
    ['enum', { enum: ['x', { $ref: '#/definitions/A' }] }],
    ['default', { default: { nested: { $ref: '#/definitions/A' } } }],
    ['examples', { examples: [{ $ref: '#/definitions/A' }] }],
    ['an unknown keyword', { 'x-extra': { $ref: '#/definitions/A' } }],
  ])('a $ref in %s (data) is not rewritten: refused', (_, extra) => {
    const doc = { type: 'object', ...extra, definitions: { A: { type: 'string' } } };
    const copy = structuredClone(doc);
    expect(refused(doc)).toMatch(/\$ref/);
    expect(doc).toEqual(copy);
  });

  it('data that merely looks like a schema with a $ref elsewhere does not stop inlining', () => {
    expect(inlined({ properties: { a: { $ref: '#/definitions/A' } }, const: { ref: '#/definitions/A' }, definitions: { A: { type: 'string' } } }))
      .toEqual({ properties: { a: { type: 'string' } }, const: { ref: '#/definitions/A' } });
  });

  it.each([
    ['a reference to the root (#)', { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } }],
    ['a self-reference through definitions', { properties: { node: { $ref: '#/definitions/Node' } }, definitions: { Node: { properties: { next: { $ref: '#/definitions/Node' } } } } }],
    ['mutual recursion A → B → A', { $ref: '#/definitions/A', definitions: { A: { properties: { b: { $ref: '#/definitions/B' } } }, B: { items: { $ref: '#/definitions/A' } } } }],
    ['a reference to its own ancestor', { properties: { a: { properties: { b: { $ref: '#/properties/a' } } } } }],
    ['a definition that is its own reference', { properties: { x: { $ref: '#/definitions/Loop' } }, definitions: { Loop: { $ref: '#/definitions/Loop' } } }],
  ])('recursive: %s', (_, doc) => {
    expect(refused(doc)).toMatch(/recursive/);
  });

  it.each([
    'https://example.com/other.json#/definitions/A',
    'other.json',
    'definitions.json#/A',
  ])('a remote reference %s', (ref) => {
    const reason = refused({ properties: { a: { $ref: ref } }, definitions: { A: { type: 'string' } } });
    expect(reason).toContain(ref);
    expect(reason).toMatch(/not local/);
  });

  it.each(['#/definitions/missing', '#/definitions/A/properties/nope', '#/nowhere', '#A'])('a dangling reference %s', (ref) => {
    const reason = refused({ properties: { a: { $ref: ref } }, definitions: { A: { type: 'string' } } });
    expect(reason).toContain(ref);
    expect(reason).toMatch(/nothing/);
  });

  it('one bad reference among good ones refuses the whole schema', () => {
    const result: Inlined = inlineLocalRefs({
      properties: { good: { $ref: '#/definitions/A' }, bad: { $ref: '#/definitions/missing' } },
      definitions: { A: { type: 'string' } },
    });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('#/definitions/missing') });
  });

  it('exponential growth is refused at the node limit, quickly', () => {
    const definitions: Record<string, unknown> = { D0: { type: 'string' } };
    for (let i = 1; i <= 30; i += 1) {
      definitions[`D${i}`] = { type: 'object', properties: { l: { $ref: `#/definitions/D${i - 1}` }, r: { $ref: `#/definitions/D${i - 1}` } } };
    }
    const started = performance.now();
    const reason = refused({ $ref: '#/definitions/D30', definitions });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(reason).toContain(String(MAX_INLINED_NODES));
    expect(reason).toMatch(/nodes/);
  });

  it('the same sharing below the limit is inlined in full', () => {
    const definitions: Record<string, unknown> = { D0: { type: 'string' } };
    for (let i = 1; i <= 8; i += 1) {
      definitions[`D${i}`] = { type: 'object', properties: { l: { $ref: `#/definitions/D${i - 1}` }, r: { $ref: `#/definitions/D${i - 1}` } } };
    }
    const out = inlined({ $ref: '#/definitions/D8', definitions }) as any;
    let leaf = out;
    for (let i = 0; i < 8; i += 1) leaf = leaf.properties.r;
    expect(leaf).toEqual({ type: 'string' });
    expect(anyRef(out)).toBe(false);
  });
});

describe('the input document', () => {
  it('is not mutated, whether inlining succeeds or not', () => {
    const good = {
      $schema: 'http://json-schema.org/draft-07/schema#', $id: 'x',
      properties: { a: { $ref: '#/definitions/A', description: 'd' }, b: { items: [{ $ref: '#/definitions/A' }] } },
      dependencies: { a: ['b'] }, definitions: { A: { type: 'string', enum: ['p', 'q'] } },
    };
    const bad = { properties: { a: { $ref: '#/definitions/A' }, b: { $ref: '#' } }, definitions: { A: { type: 'string' } } };
    for (const doc of [good, bad]) {
      const copy = structuredClone(doc);
      inlineLocalRefs(doc);
      expect(doc).toEqual(copy);
    }
  });

  it('a deeply frozen document is inlined without error', () => {
    const freeze = (v: any): any => {
      if (v && typeof v === 'object') { Object.values(v).forEach(freeze); Object.freeze(v); }
      return v;
    };
    const doc = freeze({ properties: { a: { $ref: '#/definitions/A', title: 't' } }, definitions: { A: { type: 'string' } } });
    expect(inlined(doc)).toEqual({ properties: { a: { allOf: [{ type: 'string' }], title: 't' } } });
  });

  it('an inlined definition is a copy: changing the result leaves the definition alone', () => {
    const doc = { properties: { a: { $ref: '#/definitions/A' }, b: { $ref: '#/definitions/A' } }, definitions: { A: { type: 'object', properties: { x: { type: 'string' } } } } };
    const out = inlined(doc) as any;
    out.properties.a.properties.x.type = 'changed';
    expect(out.properties.b.properties.x.type).toBe('string');
    expect(doc.definitions.A.properties.x.type).toBe('string');
  });
});
