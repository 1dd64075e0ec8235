/** Backward compatibility of JSON_SCHEMA versions: new required properties and changed types. */
import { describe, expect, it } from 'vitest';
import { backwardProblems } from '../../schema-formats/index';

const jsonSchema = (extra: Record<string, unknown>) => JSON.stringify({ title: 'Customer', type: 'object', ...extra });

describe('backwardProblems: JSON_SCHEMA', () => {
  const base = jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id'] });

  it.each([
    ['identical text', base, base],
    ['a required property dropped from required', base, jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } } })],
    ['an optional property added', base, jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' }, age: { type: 'integer' } }, required: ['id'] })],
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
      'a new property that is required',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } }, required: ['id', 'email'] }),
      ["property 'email' became required"],
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

  it('terminates on recursive $refs and explains the first level', () => {
    const tree = (valueType: string) =>
      jsonSchema({ $ref: '#/definitions/Node', definitions: { Node: { type: 'object', properties: { value: { type: valueType }, children: { type: 'array', items: { $ref: '#/definitions/Node' } } } } } });
    expect(backwardProblems('JSON_SCHEMA', tree('string'), tree('string'))).toEqual([]);
    expect(backwardProblems('JSON_SCHEMA', tree('string'), tree('boolean'))).toEqual(["property 'value' changed type from string to boolean"]);
  });
});

// ---------- shared behaviour ----------
