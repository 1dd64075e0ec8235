/** Backward compatibility of JSON_SCHEMA versions: required properties, types and the open/closed content model. */
import { describe, expect, it } from 'vitest';
import { backwardProblems } from '../../schema-formats/index';
import { jsonSchemaBackwardProblems, jsonSchemaReadProblems } from '../../schema-formats/json-schema-compatibility';

const jsonSchema = (extra: Record<string, unknown>) => JSON.stringify({ title: 'Customer', type: 'object', ...extra });

describe('backwardProblems: JSON_SCHEMA', () => {
  const base = jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id'] });

  it.each([
    ['identical text', base, base],
    ['a required property dropped from required', base, jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } } })],
    [
      'an optional property added to a closed content model',
      jsonSchema({ properties: { id: { type: 'integer' } }, additionalProperties: false }),
      jsonSchema({ properties: { id: { type: 'integer' }, age: { type: 'integer' } }, additionalProperties: false }),
    ],
    ['a property removed', base, jsonSchema({ properties: { id: { type: 'integer' } }, required: ['id'] })],
    ['integer widened to number', base, jsonSchema({ properties: { id: { type: 'number' }, name: { type: 'string' } }, required: ['id'] })],
    ['a type added to the set', base, jsonSchema({ properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } }, required: ['id'] })],
    ['a type constraint removed', base, jsonSchema({ properties: { id: {}, name: { type: 'string' } }, required: ['id'] })],
    ['the same type set in another order', jsonSchema({ properties: { v: { type: ['string', 'null'] } } }), jsonSchema({ properties: { v: { type: ['null', 'string'] } } })],
    ['a property moved into definitions behind a $ref', base, jsonSchema({ properties: { id: { $ref: '#/definitions/Id' }, name: { type: 'string' } }, required: ['id'], definitions: { Id: { type: 'integer' } } })],
  ])('accepts %s', (_label, oldText, newText) => {
    expect(backwardProblems('JSON_SCHEMA', oldText, newText)).toEqual([]);
  });

  it.each([
    [
      'a property newly required',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] }),
      ["property 'name' became required"],
    ],
    [
      // Rule OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: without `additionalProperties: false` old data may already
      // carry `age`, with any value, so Confluent (STRICT) refuses what this module used to accept.
      'an optional property added to an open content model',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' }, age: { type: 'integer' } }, required: ['id'] }),
      ["property 'age' was added to an open content model: old data may hold it with any value"],
    ],
    [
      // Rule REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: still refused; the message now says both reasons.
      'a new property that is required',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } }, required: ['id', 'email'] }),
      ["property 'email' was added as required to an open content model: old data may lack it or hold any value"],
    ],
    [
      'a new required property in a closed content model',
      jsonSchema({ properties: { id: { type: 'integer' } }, additionalProperties: false }),
      jsonSchema({ properties: { id: { type: 'integer' }, email: { type: 'string' } }, required: ['email'], additionalProperties: false }),
      ["property 'email' was added as required: old data lacks it"],
    ],
    [
      'a property removed from a closed content model',
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } }, additionalProperties: false }),
      jsonSchema({ properties: { id: { type: 'integer' } }, additionalProperties: false }),
      ["property 'name' was removed from a closed content model: old data that has it is refused"],
    ],
    [
      'a type changed',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'integer' } }, required: ['id'] }),
      ["property 'name' changed type from string to integer"],
    ],
    [
      'number narrowed to integer',
      jsonSchema({ properties: { amount: { type: 'number' } } }),
      jsonSchema({ properties: { amount: { type: 'integer' } } }),
      ["property 'amount' changed type from number to integer"],
    ],
    [
      'a type removed from the set',
      jsonSchema({ properties: { v: { type: ['string', 'null'] } } }),
      jsonSchema({ properties: { v: { type: 'string' } } }),
      ["property 'v' changed type from string|null to string"],
    ],
    [
      'a type added where any type was allowed',
      jsonSchema({ properties: { v: {} } }),
      jsonSchema({ properties: { v: { type: 'string' } } }),
      ["property 'v' changed type from any to string"],
    ],
    [
      'the root type changed',
      base,
      JSON.stringify({ title: 'Customer', type: 'array' }),
      ['the root schema changed type from object to array'],
    ],
    [
      'a nested property newly required',
      jsonSchema({ properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } }),
      jsonSchema({ properties: { address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'] } } }),
      ["property 'address.street' became required"],
    ],
    [
      'a nested type changed',
      jsonSchema({ properties: { address: { type: 'object', properties: { geo: { type: 'object', properties: { lat: { type: 'number' } } } } } } }),
      jsonSchema({ properties: { address: { type: 'object', properties: { geo: { type: 'object', properties: { lat: { type: 'string' } } } } } } }),
      ["property 'address.geo.lat' changed type from number to string"],
    ],
    [
      'a property of array items changed',
      jsonSchema({ properties: { lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } } } }),
      jsonSchema({ properties: { lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'string' } }, required: ['qty'] } } } }),
      ["property 'lines[].qty' became required", "property 'lines[].qty' changed type from integer to string"],
    ],
  ])('refuses %s', (_label, oldText, newText, expected) => {
    expect(backwardProblems('JSON_SCHEMA', oldText, newText)).toEqual(expected);
  });

  it.each([
    [
      'draft-07 definitions',
      (street: Record<string, unknown>, required: string[]) =>
        jsonSchema({ properties: { address: { $ref: '#/definitions/Address' } }, definitions: { Address: { type: 'object', properties: { street }, required } } }),
    ],
    [
      '2020-12 $defs',
      (street: Record<string, unknown>, required: string[]) =>
        jsonSchema({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          properties: { address: { $ref: '#/$defs/Address' } },
          $defs: { Address: { type: 'object', properties: { street }, required } },
        }),
    ],
  ])('follows local $ref into %s', (_label, schema) => {
    expect(backwardProblems('JSON_SCHEMA', schema({ type: 'string' }, []), schema({ type: 'string' }, []))).toEqual([]);
    expect(backwardProblems('JSON_SCHEMA', schema({ type: 'string' }, []), schema({ type: 'integer' }, ['street']))).toEqual([
      "property 'address.street' became required",
      "property 'address.street' changed type from string to integer",
    ]);
  });

  it('terminates on recursive $refs and explains the first level and where it recurs', () => {
    const tree = (valueType: string) =>
      jsonSchema({ $ref: '#/definitions/Node', definitions: { Node: { type: 'object', properties: { value: { type: valueType }, children: { type: 'array', items: { $ref: '#/definitions/Node' } } } } } });
    expect(backwardProblems('JSON_SCHEMA', tree('string'), tree('string'))).toEqual([]);
    // A recursive pair found incompatible is also reported where it recurs, once (Confluent's fixpoint).
    expect(backwardProblems('JSON_SCHEMA', tree('string'), tree('boolean'))).toEqual([
      "property 'value' changed type from string to boolean",
      "property 'children[].value' changed type from string to boolean",
    ]);
  });
});

describe('jsonSchemaReadProblems: paths and rules', () => {
  const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

  it.each([
    ['a nested property', object({ address: object({ street: { type: 'string' } }) }), object({ address: object({ street: { type: 'string' } }, { required: ['street'] }) }),
      { path: 'address.street', rule: 'REQUIRED_ATTRIBUTE_ADDED' }],
    ['every item', object({ lines: { type: 'array', items: { type: 'integer' } } }), object({ lines: { type: 'array', items: { type: 'string' } } }),
      { path: 'lines[]', rule: 'TYPE_CHANGED' }],
    ['a tuple position', object({ pair: { type: 'array', items: [{ type: 'string' }] } }), object({ pair: { type: 'array', items: [{ type: 'string', maxLength: 3 }] } }),
      { path: 'pair[0]', rule: 'MAX_LENGTH_ADDED' }],
    ['other properties', object({ labels: { type: 'object', additionalProperties: { type: 'string' } } }), object({ labels: { type: 'object', additionalProperties: { type: 'integer' } } }),
      { path: 'labels{}', rule: 'TYPE_CHANGED' }],
    ['the root', { type: 'number' }, { type: 'integer' }, { path: '', rule: 'TYPE_NARROWED' }],
  ])('names %s', (_label, writer, reader, expected) => {
    expect(jsonSchemaReadProblems(reader, writer)).toEqual([expect.objectContaining(expected)]);
  });

  it('backward problems are the messages of the new schema reading the old', () => {
    const [old, now] = [object({ a: { type: 'string' } }), object({ a: { type: 'string' }, b: { type: 'string' } }, { required: ['a', 'b'] })];
    expect(jsonSchemaBackwardProblems(old, now)).toEqual(jsonSchemaReadProblems(now, old).map((p) => p.message));
    expect(jsonSchemaReadProblems(now, old).map((p) => p.rule)).toEqual(['REQUIRED_ATTRIBUTE_ADDED', 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL']);
  });
});

// ---------- shared behaviour ----------
