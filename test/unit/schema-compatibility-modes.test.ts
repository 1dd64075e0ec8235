/**
 * The seven modes over each format's own judgement (issue 45): a field added without a default breaks BACKWARD
 * (the new reader needs it) and not FORWARD; one removed breaks FORWARD (an old reader needs it) and not BACKWARD;
 * TRANSITIVE reaches versions before the latest; NONE judges nothing; a change of format is always refused.
 */
import { describe, expect, it } from 'vitest';
import { compatibilityProblems, parseSchema, type CompatibilityMode, type ParsedSchema } from '../../schema-formats';

const avro = (fields: string[]) => parseSchema(JSON.stringify({ type: 'record', name: 'Order', namespace: 'io.shop', fields: fields.map((name) => ({ name, type: 'string' })) }), 'AVRO');
const json = (props: string[]) => parseSchema(JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#', title: 'Order', type: 'object', additionalProperties: false,
  properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])), required: props,
}), 'JSON_SCHEMA');
const proto = (fields: string[]) => parseSchema(`syntax = "proto2";\npackage shop;\nmessage Order {\n${fields.map((f, i) => `  required string ${f} = ${i + 1};`).join('\n')}\n}\n`, 'PROTOBUF');

const judge = (mode: CompatibilityMode, candidate: ParsedSchema, ...earlier: ParsedSchema[]) =>
  compatibilityProblems(mode, candidate, earlier.map((schema, i) => ({ label: String(i + 1), schema }))).map((p) => `${p.direction} ${p.against} ${p.rule} ${p.path}`);

describe.each([
  ['AVRO', avro, 'FIELD_NO_DEFAULT'],
  ['JSON_SCHEMA', json, undefined],
  ['PROTOBUF', proto, 'MESSAGE_SAME_REQUIRED_FIELDS'],
] as const)('%s through the modes', (_type, make, addedRule) => {
  const v1 = make(['id']);
  const v2 = make(['id', 'amount']);
  const v3 = make(['id', 'amount', 'currency']);

  it('NONE judges nothing, and an unchanged schema passes every mode', () => {
    expect(judge('NONE', make(['other']), v1, v2)).toEqual([]);
    // Against the latest only, which the candidate equals; a transitive mode would also meet version 1.
    for (const mode of ['BACKWARD', 'FORWARD', 'FULL'] as const) expect(judge(mode, v2, v1, v2)).toEqual([]);
  });

  it('a field added (required) breaks BACKWARD against the latest, FULL too', () => {
    const backward = judge('BACKWARD', v3, v1, v2);
    expect(backward.length).toBeGreaterThan(0);
    expect(backward.every((p) => p.startsWith('reads 2 '))).toBe(true);
    if (addedRule) expect(backward.some((p) => p.includes(addedRule))).toBe(true);
    expect(judge('FULL', v3, v1, v2).length).toBeGreaterThanOrEqual(backward.length);
  });

  it('TRANSITIVE judges every earlier version, the latest first', () => {
    const transitive = judge('BACKWARD_TRANSITIVE', v3, v1, v2);
    expect(transitive.some((p) => p.startsWith('reads 1 '))).toBe(true);
    expect(transitive[0].startsWith('reads 2 ')).toBe(true);
  });

  it('a field removed breaks FORWARD (the latest cannot read the candidate\'s data)', () => {
    const forward = judge('FORWARD', v1, v1, v2);
    expect(forward.length).toBeGreaterThan(0);
    expect(forward.every((p) => p.startsWith('read by 2 '))).toBe(true);
  });
});

describe('a change of format', () => {
  it('is refused in every mode but NONE', () => {
    const problems = judge('BACKWARD', avro(['id']), parseSchema('{"title":"Order","type":"object"}', 'JSON_SCHEMA'));
    expect(problems).toEqual(['reads 1 SCHEMA_TYPE_CHANGED ']);
  });
});
