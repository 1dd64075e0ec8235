import { describe, expect, it } from 'vitest';
import { streamProblems, type StreamShape } from '../../core/rules/stream-rules';

const base: StreamShape = { keyType: 'String', valueType: 'String', confidentiality: null, integrity: null, classificationRequired: false };
const fields = (s: Partial<StreamShape>) => streamProblems({ ...base, ...s }).map((p) => `${p.field}: ${p.message}`);

describe('streamProblems', () => {
  it.each(['AVRO', 'PROTOBUF', 'JSON_SCHEMA'])('a %s key needs a schema of that type, and only that type', (type) => {
    expect(fields({ keyType: type })).toEqual([`keySchema: is required when keyType is ${type}`]);
    expect(fields({ keyType: type, keySchemaType: type })).toEqual([]);
    const other = type === 'AVRO' ? 'PROTOBUF' : 'AVRO';
    expect(fields({ keyType: type, keySchemaType: other })).toEqual([`keySchema: must be a schema of type ${type} (it is ${other})`]);
  });
  it.each(['JSON', 'Binary', 'String', 'Xml'])('a %s value takes no schema', (type) => {
    expect(fields({ valueType: type })).toEqual([]);
    expect(fields({ valueType: type, valueSchemaType: 'AVRO' })).toEqual([`valueSchema: must be empty when valueType is ${type}`]);
  });
  it('reports key and value problems together', () => {
    expect(fields({ keyType: 'AVRO', valueType: 'String', valueSchemaType: 'AVRO' })).toEqual([
      'keySchema: is required when keyType is AVRO', 'valueSchema: must be empty when valueType is String',
    ]);
  });
  it('a referenced schema that is not found counts as of unknown type', () => {
    expect(fields({ keyType: 'AVRO', keySchemaType: null })).toEqual(['keySchema: must be a schema of type AVRO (it is unknown)']);
  });
  it('confidentiality and integrity are required only when the tenant classifies data', () => {
    expect(fields({ classificationRequired: true })).toEqual([
      'confidentiality: is required: the tenant classifies its data', 'integrity: is required: the tenant classifies its data',
    ]);
    expect(fields({ classificationRequired: true, confidentiality: 'c', integrity: 'i' })).toEqual([]);
    expect(fields({ classificationRequired: false, confidentiality: null })).toEqual([]);
  });
});
