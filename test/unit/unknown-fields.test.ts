import { describe, expect, it } from 'vitest';
import { deref, operationById, type Schema } from '../../core/spec';
import { fieldName, ignoredFieldsHeader, unknownFields } from '../../server/unknown-fields';

const names = (schema: Schema | undefined, body: unknown) => unknownFields(schema, body).map(fieldName);

const group: Schema = {
  type: 'object',
  properties: { name: { type: 'string' }, emailAddress: { anyOf: [{ type: 'string' }, { type: 'object', properties: { email: { type: 'string' } } }] } },
};

describe('unknown fields of a body', () => {
  it('names top-level properties the schema does not declare, in body order', () => {
    expect(names(group, { name: 'Team', emial: 'x@example.com', zz: 1 })).toEqual(['emial', 'zz']);
    expect(names(group, { name: 'Team', emailAddress: 'x@example.com' })).toEqual([]);
  });

  it('walks nested objects and array items where the schema declares properties', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        owner: { type: 'object', properties: { uid: { type: 'string' } } },
        list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
    expect(names(schema, { owner: { uid: 'u', foo: 1 }, list: [{ a: 'x' }, { a: 'y', b: 2 }], tags: ['t'] })).toEqual(['owner.foo', 'list[1].b']);
    // A value of the wrong type is the validator's to refuse, not an unknown field.
    expect(names(schema, { owner: 'u', list: 'x', tags: [{ q: 1 }] })).toEqual([]);
  });

  it('merges allOf members, including the ones that only constrain', () => {
    const schema: Schema = { allOf: [group, { required: ['name'] }, { type: 'object', properties: { phoneNumber: { type: 'string' } } }] };
    expect(names(schema, { name: 'x', phoneNumber: '1', phonNumber: '2' })).toEqual(['phonNumber']);
  });

  it('knows a name when any oneOf/anyOf branch declares it; a free-form object branch leaves every name open', () => {
    const either: Schema = { oneOf: [{ type: 'object', properties: { a: {} } }, { type: 'object', properties: { b: {} } }] };
    expect(names(either, { a: 1, b: 2, c: 3 })).toEqual(['c']);
    const freeForm: Schema = { anyOf: [{ type: 'object', properties: { a: {} } }, { type: 'object' }] };
    expect(names(freeForm, { c: 3 })).toEqual([]);
    // `oneOf: [{required: [a]}, {required: [b]}]` beside properties says which are required, not what is allowed.
    const required: Schema = { type: 'object', properties: { a: {}, b: {} }, oneOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(names(required, { a: 1, c: 3 })).toEqual(['c']);
  });

  it('an association body: a string, an array of strings, {href} or {links: [{href}]}', () => {
    const body: Schema = {
      oneOf: [
        { type: 'string' },
        { type: 'array', items: { type: 'string' } },
        { type: 'object', properties: { href: { type: 'string' }, links: { type: 'array', items: { type: 'object', properties: { href: {}, templated: {}, title: {} } } } } },
      ],
    };
    expect(names(body, 'https://x/api/groups/1')).toEqual([]);
    expect(names(body, ['https://x/api/groups/1'])).toEqual([]);
    expect(names(body, { href: 'h', rel: 'self' })).toEqual(['rel']);
    expect(names(body, { links: [{ href: 'h', rel: 'group' }] })).toEqual(['links[0].rel']);
  });

  it('maps have no unknown keys; their values are walked when the map says what they are', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        properties: { type: 'object', nullable: true, additionalProperties: { type: 'string', nullable: true } },
        nested: { type: 'object', additionalProperties: { type: 'object', properties: { v: {} } } },
        mixed: { type: 'object', properties: { known: { type: 'object', properties: { k: {} } } }, additionalProperties: true },
        patterned: { type: 'object', patternProperties: { '^x-': {} } },
      },
    };
    expect(names(schema, {
      properties: { 'segment.ms': '1', __proto__x: null },
      nested: { any: { v: 1, w: 2 } },
      mixed: { known: { k: 1, j: 2 }, other: { j: 3 } },
      patterned: { 'x-a': 1, y: 2 },
    })).toEqual(['nested.any.w', 'mixed.known.j']);
  });

  it('a schema without properties leaves an object open', () => {
    // additionalProperties: false is the validator's to refuse (400 naming the key), not reported twice.
    expect(names({ type: 'object', properties: { b: {} }, additionalProperties: false }, { a: 1 })).toEqual([]);
    expect(names({ type: 'object' }, { a: { b: 1 } })).toEqual([]);
    expect(names({}, { a: 1 })).toEqual([]);
    expect(names(undefined, { a: 1 })).toEqual([]);
    expect(names({ type: 'object', properties: {} }, { a: 1 })).toEqual(['a']);
  });

  it('an array body whose items declare properties (a principal POST)', () => {
    const schema: Schema = { anyOf: [{ type: 'array', items: { type: 'object', properties: { principal: {} } } }, { type: 'object', properties: { principal: {} } }] };
    expect(names(schema, [{ principal: 'p', extra: 1 }])).toEqual(['[0].extra']);
    expect(names(schema, { principal: 'p', extra: 1 })).toEqual(['extra']);
  });

  it('keys that are not plain names are names too: __proto__, dots, digits', () => {
    const body = JSON.parse('{"__proto__": 1, "a.b": 2, "0": 3, "name": "x"}');
    expect(names(group, body)).toEqual(['0', '__proto__', 'a.b']);
  });

  it('scalars, null and no body have no fields', () => {
    for (const body of [undefined, null, 'x', 1, true]) expect(names(group, body)).toEqual([]);
  });

  it('compiles a schema once: the same object gives the same answer, a changed copy its own', () => {
    const schema: Schema = { type: 'object', properties: { a: {} } };
    expect(names(schema, { a: 1, b: 2 })).toEqual(['b']);
    expect(names({ ...schema, properties: { a: {}, b: {} } }, { a: 1, b: 2 })).toEqual([]);
  });
});

describe('the document\'s request bodies', () => {
  const bodyOf = (operationId: string, type = 'application/json') => deref(operationById(operationId)!.requestBody.content[type].schema);

  it('the issue\'s examples: a group created with "emial", patched with "phonNumber"', () => {
    expect(names(bodyOf('createGroup'), { name: 'Team', emial: 'x@example.com' })).toEqual(['emial']);
    expect(names(bodyOf('patchGroup'), { phonNumber: '+31 20 123 4567' })).toEqual(['phonNumber']);
    expect(names(bodyOf('patchGroup', 'application/merge-patch+json'), { phonNumber: null })).toEqual(['phonNumber']);
  });

  it('maps of the document (properties, settings, configs) take any key', () => {
    const env = bodyOf('createEnvironment');
    expect(names(env, { name: 'e', properties: { 'segment.ms': '1' }, settings: { anything: 'x' } })).toEqual([]);
  });

  it('every documented example of a JSON body declares all its fields', () => {
    const problems: string[] = [];
    for (const item of Object.values<Schema>(deref({ $ref: '#/paths' }))) {
      for (const op of Object.values<Schema>(item)) {
        for (const [type, media] of Object.entries<Schema>(op?.requestBody?.content ?? {})) {
          if (type === 'text/uri-list') continue;
          const examples = [media.example, ...Object.values<Schema>(media.examples ?? {}).map((e) => e.value)].filter((e) => e !== undefined);
          for (const example of examples) {
            for (const name of names(media.schema, example)) problems.push(`${op.operationId} ${type}: ${name}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the Ignored-Fields header value', () => {
  it('lists the names comma-separated, in the error body\'s field syntax', () => {
    expect(ignoredFieldsHeader([['emial'], ['owners', 0, 'foo'], [0, 'x']])).toBe('emial, owners[0].foo, [0].x');
  });

  it('percent-encodes what could be mistaken for a separator, and anything not ASCII', () => {
    expect(ignoredFieldsHeader([['a,b'], ['a b'], ['é'], ['"q"'], ['100%'], ['(x)*']])).toBe('a%2Cb, a%20b, %C3%A9, %22q%22, 100%25, %28x%29%2A');
    expect(decodeURIComponent('%C3%A9')).toBe('é');
  });

  it('names at most 20 fields of at most 200 characters and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => [`f${i}`]);
    expect(ignoredFieldsHeader(many)).toBe(`${many.slice(0, 20).map(([f]) => f).join(', ')}, (5 more)`);
    expect(ignoredFieldsHeader([['x'.repeat(201)], ['y']])).toBe('y, (1 more)');
    // The body reader refuses unpaired surrogates; were one to reach here, it is counted, not written.
    expect(ignoredFieldsHeader([['\ud800'], ['y']])).toBe('y, (1 more)');
  });
});
