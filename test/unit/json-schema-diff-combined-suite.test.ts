/**
 * JSON_SCHEMA compatibility against Confluent Schema Registry's cases beyond diff-schema-examples.json (see
 * json-schema-diff-suite.test.ts for the columns): every case of diff-combined-schema-examples.json, the cases of
 * diff-schema-examples-2020-12.json for keywords draft-07 does not have (`unevaluatedProperties`,
 * `unevaluatedItems`, `dependentRequired`, `minContains`; their 2020-12 `$schema` is added back by `in2020`), and
 * cases of our own, each citing the Confluent rule it shows.
 *
 * Licence: those files are under the Confluent Community License 1.0 (json-schema-provider/LICENSE), so they are not
 * copied here: the cases are restated as table rows of this test, each citing where it comes from.
 */
import { describe, expect, it } from 'vitest';
import { jsonSchemaReadProblems } from '../../schema-formats/json-schema-compatibility';
import type { JsonSchemaDocument } from '../../schema-formats/types';

type Case = [source: string, writer: JsonSchemaDocument, reader: JsonSchemaDocument, compatible: boolean, rules: string[]];

const resources = 'confluentinc/schema-registry json-schema-provider/src/test/resources';
const combined = (description: string) => `${resources}/diff-combined-schema-examples.json: "${description}"`;
const draft2020 = (description: string) => `${resources}/diff-schema-examples-2020-12.json: "${description}"`;
const rule = (name: string) => `rule: ${name}`;
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
const in2020 = ([source, writer, reader, ...verdict]: Case): Case =>
  [source, { $schema: DRAFT_2020_12, ...writer }, { $schema: DRAFT_2020_12, ...reader }, ...verdict];

const COMBINED: Case[] = [
  [combined('Detect compatible change to combined schema'),
    { type: 'object', properties: { prop1: { allOf: [{ enum: ['one', 'two', 'three'] }, { type: 'string' }, { maxLength: 5 }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ maxLength: 5 }, { enum: ['one', 'two', 'three'] }, { type: 'string' }] } } },
    true, []],
  [combined('Detect incompatible change to combined schema'),
    { type: 'object', properties: { prop1: { allOf: [{ enum: ['one', 'two', 'three'] }, { type: 'string' }, { maxLength: 5 }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ maxLength: 5 }, { enum: ['one', 'two', 'three'] }, { type: 'number' }] } } },
    false, ['COMBINED_TYPE_SUBSCHEMAS_CHANGED']],
  [combined('Detect combined schema with duplicates in original'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }, { type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect combined schema with duplicates in update'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change to oneOf schema'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change to oneOf schema with more types'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change to oneOf schema with more properties'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string', maxLength: 5 }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'boolean' }, { type: 'number' }, { title: 'my string', type: 'string', maxLength: 8 }] } } },
    true, []],
  [combined('Detect incompatible change to oneOf schema'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'number' }, { type: 'string' }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    false, ['SUM_TYPE_NARROWED']],
  [combined('Detect compatible change to allOf schema'),
    { type: 'object', properties: { prop1: { allOf: [{ enum: ['one', 'two', 'three'] }, { type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect incompatible change to allOf schema'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ enum: ['one', 'two', 'three'] }, { type: 'string' }] } } },
    false, ['PRODUCT_TYPE_EXTENDED']],
  [combined('Detect compatible change from oneOf to anyOf schema'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from oneOf to anyOf schema with more properties'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from allOf to anyOf schema'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect incompatible change from oneOf to anyOf schema with fewer properties'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'number' }, { type: 'string' }] } } },
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'string' }] } } },
    false, ['SUM_TYPE_NARROWED']],
  [combined('Detect compatible change from allOf to anyOf schema with more properties'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from allOf to anyOf schema with fewer properties'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'number' }, { type: 'string' }] } } },
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from anyOf to oneOf schema with more properties'),
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect incompatible change from anyOf to oneOf schema with fewer properties'),
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'number' }, { type: 'string' }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    false, ['COMBINED_TYPE_CHANGED']],
  [combined('Detect compatible change from allOf to oneOf schema with more properties'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'number' }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from allOf to oneOf schema with fewer properties'),
    { type: 'object', properties: { prop1: { allOf: [{ type: 'number' }, { type: 'string' }] } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from anyOf to allOf schema'),
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from oneOf to allOf schema'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect incompatible change from anyOf to allOf schema'),
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'number' }, { type: 'string' }] } } },
    false, ['COMBINED_TYPE_CHANGED']],
  [combined('Detect incompatible change from oneOf to allOf schema'),
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'string' }] } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'number' }, { type: 'string' }] } } },
    false, ['COMBINED_TYPE_CHANGED']],
  [combined('Detect compatible change from non-combined to anyOf schema'),
    { type: 'object', properties: { prop1: { type: 'string' } } },
    { type: 'object', properties: { prop1: { anyOf: [{ type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from non-combined to oneOf schema'),
    { type: 'object', properties: { prop1: { type: 'string' } } },
    { type: 'object', properties: { prop1: { oneOf: [{ type: 'number' }, { type: 'string' }] } } },
    true, []],
  [combined('Detect compatible change from non-combined to allOf schema'),
    { type: 'object', properties: { prop1: { type: 'string' } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'string' }] } } },
    true, []],
  [combined('Detect incompatible change from non-combined to allOf schema'),
    { type: 'object', properties: { prop1: { type: 'string' } } },
    { type: 'object', properties: { prop1: { allOf: [{ type: 'number' }, { type: 'string' }] } } },
    false, ['TYPE_CHANGED']],
];

const DRAFT_2020: Case[] = ([
  [draft2020('Detect optional property added to closed content model, unevaluated'),
    { properties: { foo: { type: 'string' } }, unevaluatedProperties: false },
    { properties: { foo: { type: 'string' }, bar: { type: 'number' } }, unevaluatedProperties: false },
    true, []],
  [draft2020('Detect property added to partially open content model 2, unevaluated'),
    { properties: { foo: { type: 'string' } }, unevaluatedProperties: { type: 'string' } },
    { properties: { foo: { type: 'string' }, bar: { type: 'string' } }, unevaluatedProperties: { type: 'string' } },
    true, []],
  [draft2020('Detect property added to partially open content model 3, unevaluated'),
    { properties: { foo: { type: 'string' } }, unevaluatedProperties: { type: 'string' } },
    { properties: { foo: { type: 'string' }, bar: { type: 'number' } }, unevaluatedProperties: { type: 'string' } },
    false, ['TYPE_CHANGED', 'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL']],
  [draft2020('Detect property added to partially open content model 4, unevaluated'),
    { properties: { foo: { type: 'string' } }, unevaluatedProperties: { type: 'string' } },
    { properties: { foo: { type: 'string' }, bar: { type: 'string' } }, required: ['bar'], unevaluatedProperties: { type: 'string' } },
    false, ['REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL']],
  [draft2020('Detect changes to dependencies as array'),
    { properties: { foo: { type: 'number' }, bar: { type: 'string' } }, dependentRequired: { foo: ['bar'] } },
    { properties: { foo: { type: 'number' }, bar: { type: 'string' } }, dependentRequired: { bar: ['foo'] } },
    false, ['DEPENDENCY_ARRAY_ADDED']],
  [draft2020('Detect item added to partially open content model 1, unevaluated'),
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], unevaluatedItems: { type: 'string' } },
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }, { type: 'string' }], unevaluatedItems: { type: 'string' } },
    true, []],
  [draft2020('Detect item added to partially open content model 2, unevaluated'),
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], unevaluatedItems: { type: 'string' } },
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }, { type: 'number' }], unevaluatedItems: { type: 'string' } },
    false, ['TYPE_CHANGED', 'ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL']],
  [draft2020('Detect item removed from partially open content model 1, unevaluated'),
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }, { type: 'string' }], unevaluatedItems: { type: 'string' } },
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], unevaluatedItems: { type: 'string' } },
    true, []],
  [draft2020('Detect item removed from partially open content model 2, unevaluated'),
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }, { oneOf: [{ type: 'null' }, { type: 'string' }] }], unevaluatedItems: { oneOf: [{ type: 'null' }, { type: 'string' }] } },
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], unevaluatedItems: { oneOf: [{ type: 'null' }, { type: 'string' }] } },
    true, []],
  [draft2020('Detect item removed from partially open content model 3, unevaluated'),
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }, { type: 'number' }], unevaluatedItems: { type: 'string' } },
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], unevaluatedItems: { type: 'string' } },
    false, ['TYPE_CHANGED', 'ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL']],
  [draft2020('Detect removed minContains'), { type: 'array', contains: { type: 'number' }, minContains: 1 }, { type: 'array', contains: { type: 'number' } }, true, []],
  [draft2020('Detect increased minContains'),
    { type: 'array', contains: { type: 'number' }, minContains: 1 },
    { type: 'array', contains: { type: 'number' }, minContains: 2 },
    false, ['MIN_CONTAINS_INCREASED']],
  [draft2020('Detect decreased minContains'), { type: 'array', contains: { type: 'number' }, minContains: 2 }, { type: 'array', contains: { type: 'number' }, minContains: 1 }, true, []],
] satisfies Case[]).map(in2020);

const OWN: Case[] = [
  [rule('REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED'), { properties: { a: { type: 'string' } } }, { properties: { a: { type: 'string', default: '' } }, required: ['a'] }, true, []],
  // STRICT refuses it: under an open model old data may hold `b` with a value the new schema refuses.
  [rule('REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL'),
    { properties: { a: { type: 'string' } } },
    { properties: { a: { type: 'string' }, b: { type: 'string', default: '' } }, required: ['b'] },
    false, ['REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL']],
  [rule('REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL'),
    { properties: { a: { type: 'string' } }, additionalProperties: false },
    { properties: { a: { type: 'string' }, b: { type: 'string', default: '' } }, required: ['b'], additionalProperties: false },
    true, []],
  [rule('PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL'),
    { properties: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } }, additionalProperties: false } } },
    { properties: { address: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false } } },
    false, ['PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL']],
  [rule('PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL'), { properties: { a: { type: 'string' } } }, { properties: { a: { type: 'string' }, b: {} } }, true, []],
  [rule('ADDITIONAL_PROPERTIES_REMOVED'), { type: 'object' }, { type: 'object', additionalProperties: false }, false, ['ADDITIONAL_PROPERTIES_REMOVED']],
  [rule('ENUM_ARRAY_NARROWED'), { enum: ['a', 'b'] }, { enum: ['a'] }, false, ['ENUM_ARRAY_NARROWED']],
  // `type` beside `enum` is an implicit allOf of the two, so a narrowed enum there leaves a branch unmatched.
  [rule('COMBINED_TYPE_SUBSCHEMAS_CHANGED'), { type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['a'] }, false, ['COMBINED_TYPE_SUBSCHEMAS_CHANGED']],
  // `const` and `enum` are different kinds of schema to Confluent, even where the enum accepts the const.
  [rule('TYPE_CHANGED'), { const: 'a' }, { enum: ['a', 'b'] }, false, ['TYPE_CHANGED']],
  [rule('EXCLUSIVE_MAXIMUM_DECREASED'), { type: 'number', exclusiveMaximum: 10 }, { type: 'number', exclusiveMaximum: 5 }, false, ['EXCLUSIVE_MAXIMUM_DECREASED']],
  // multipleOf is judged in decimal: 0.3 is a multiple of 0.1 although 0.3 % 0.1 is not 0 in binary floating point.
  [rule('MULTIPLE_OF_EXPANDED'), { type: 'number', multipleOf: 0.1 }, { type: 'number', multipleOf: 0.3 }, false, ['MULTIPLE_OF_EXPANDED']],
  [rule('MULTIPLE_OF_REDUCED'), { type: 'number', multipleOf: 0.3 }, { type: 'number', multipleOf: 0.1 }, true, []],
  [rule('UNIQUE_ITEMS_ADDED'), { type: 'array' }, { type: 'array', uniqueItems: true }, false, ['UNIQUE_ITEMS_ADDED']],
  [rule('MAX_ITEMS_ADDED'), { type: 'array' }, { type: 'array', maxItems: 3 }, false, ['MAX_ITEMS_ADDED']],
  [rule('ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL'),
    { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
    { type: 'array', items: [{ type: 'string' }], additionalItems: false },
    false, ['ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL']],
  [rule('ITEM_ADDED_TO_OPEN_CONTENT_MODEL'), { type: 'array' }, { type: 'array', items: [{ type: 'string' }] }, false, ['ITEM_ADDED_TO_OPEN_CONTENT_MODEL']],
  [rule('DEPENDENCY_SCHEMA_ADDED'), { type: 'object' }, { type: 'object', dependencies: { a: { required: ['b'] } } }, false, ['DEPENDENCY_SCHEMA_ADDED']],
  [rule('TYPE_CHANGED'),
    { $schema: DRAFT_2020_12, properties: { id: { $ref: '#/$defs/Id' } }, $defs: { Id: { type: 'string' } } },
    { $schema: DRAFT_2020_12, properties: { id: { $ref: '#/$defs/Id' } }, $defs: { Id: { type: 'integer' } } },
    false, ['TYPE_CHANGED']],
  [rule('NOT_TYPE_EXTENDED'), { not: { type: 'string' } }, { not: { type: ['string', 'number'] } }, false, ['NOT_TYPE_EXTENDED']],
];

describe('jsonSchemaReadProblems: Confluent combined and 2020-12 examples, and rules of our own', () => {
  it.each([...COMBINED, ...DRAFT_2020, ...OWN])('%s', (_source, writer, reader, compatible, rules) => {
    const problems = jsonSchemaReadProblems(reader, writer);
    expect(problems.length === 0).toBe(compatible);
    expect([...new Set(problems.map((p) => p.rule))].sort()).toEqual([...rules].sort());
  });

  it('holds every case of diff-combined-schema-examples.json', () => {
    expect(COMBINED).toHaveLength(28);
  });

  it('explains an unmatched branch by its counterpart of the same kind', () => {
    const list = (valueType: string) => ({
      $ref: '#/definitions/List',
      definitions: { List: { oneOf: [{ type: 'null' }, { type: 'object', properties: { value: { type: valueType }, next: { $ref: '#/definitions/List' } } }] } },
    });
    expect(jsonSchemaReadProblems(list('integer'), list('string'))).toEqual([{
      path: '',
      rule: 'COMBINED_TYPE_SUBSCHEMAS_CHANGED',
      message: "the root schema: no oneOf branch of the new schema reads object (property 'value' changed type from string to integer; "
        + "property 'next': no oneOf branch of the new schema reads object (property 'next.value' changed type from string to integer))",
    }]);
  });
});
