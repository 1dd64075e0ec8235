/**
 * Avro schemas in the form AsyncAPI's Avro meta-schema accepts (asyncapi/avro-payload.ts): the same schema, other
 * spelling; what cannot be spelt so is reported and the uploaded text kept in the message.
 */
import { describe, expect, it } from 'vitest';
import { avroPayload } from '../../asyncapi/avro-payload';
import { ExactNumber } from '../../asyncapi/exact-json';
import { keyBinding, valueMessage } from '../../asyncapi/payloads';

const text = (v: unknown) => JSON.stringify(v);

describe('avroPayload', () => {
  it('a dotted name becomes name + namespace, right after the name; nested types keep inheriting it', () => {
    const { schema, loss } = avroPayload(text({
      type: 'record', name: 'io.shop.Order', fields: [
        { name: 'line', type: { type: 'record', name: 'Line', fields: [{ name: 'sku', type: 'string' }] } },
        { name: 'status', type: { type: 'enum', name: 'io.status.Status', symbols: ['A'] } },
        { name: 'md5', type: ['null', { type: 'fixed', name: 'x.Md5', size: 16 }] },
        { name: 'lines', type: { type: 'array', items: { type: 'record', name: 'a.b.Item', fields: [] } } },
        { name: 'byKey', type: { type: 'map', values: { type: 'record', name: 'c.Val', fields: [] } } },
      ],
    }));
    expect(loss).toBeNull();
    expect(schema).toEqual({
      type: 'record', name: 'Order', namespace: 'io.shop', fields: [
        { name: 'line', type: { type: 'record', name: 'Line', fields: [{ name: 'sku', type: 'string' }] } },
        { name: 'status', type: { type: 'enum', name: 'Status', namespace: 'io.status', symbols: ['A'] } },
        { name: 'md5', type: ['null', { type: 'fixed', name: 'Md5', namespace: 'x', size: 16 }] },
        { name: 'lines', type: { type: 'array', items: { type: 'record', name: 'Item', namespace: 'a.b', fields: [] } } },
        { name: 'byKey', type: { type: 'map', values: { type: 'record', name: 'Val', namespace: 'c', fields: [] } } },
      ],
    });
    expect(Object.keys(schema as object)).toEqual(['type', 'name', 'namespace', 'fields']);
  });

  it('a dotted name wins over a namespace attribute, as in Avro', () => {
    expect(avroPayload(text({ type: 'record', name: 'a.B', namespace: 'ignored', fields: [] })).schema).toEqual({ type: 'record', name: 'B', namespace: 'a', fields: [] });
  });

  it('error is written as record', () => {
    expect(avroPayload(text({ type: 'error', name: 'Failure', fields: [] })).schema).toEqual({ type: 'record', name: 'Failure', fields: [] });
  });

  it('aliases in the type\'s own namespace become simple names; others are dropped and reported', () => {
    const same = avroPayload(text({ type: 'record', name: 'Order', namespace: 'io.shop', aliases: ['io.shop.OldOrder', 'Older'], fields: [] }));
    expect(same).toEqual({ schema: { type: 'record', name: 'Order', namespace: 'io.shop', aliases: ['OldOrder', 'Older'], fields: [] }, loss: null });
    const nested = avroPayload(text({ type: 'record', name: 'io.shop.Order', fields: [{ name: 'e', type: { type: 'enum', name: 'E', aliases: ['io.shop.F'], symbols: ['A'] } }] }));
    expect(nested.loss).toBeNull();
    expect((nested.schema as any).fields[0].type.aliases).toEqual(['F']);
    const other = avroPayload(text({ type: 'record', name: 'Order', namespace: 'io.shop', aliases: ['io.legacy.Order'], fields: [] }));
    expect(other.schema).toEqual({ type: 'record', name: 'Order', namespace: 'io.shop', aliases: [], fields: [] });
    expect(other.loss).toContain('io.legacy.Order');
  });

  it('field aliases, type references by full name and unknown attributes stay as written', () => {
    const schema = { type: 'record', name: 'R', namespace: 'n', 'x-custom': { deep: 1 }, fields: [{ name: 'a', aliases: ['b'], type: 'n.Other', default: null }] };
    expect(avroPayload(text(schema))).toEqual({ schema, loss: null });
  });

  it('a $ref attribute anywhere: no schema, and why', () => {
    expect(avroPayload(text({ type: 'record', name: 'R', fields: [{ name: 'a', type: 'string', $ref: '#/x' }] }))).toEqual({ schema: null, loss: expect.stringContaining('$ref') });
  });

  it('numbers keep their digits', () => {
    const { schema } = avroPayload('{"type":"record","name":"R","fields":[{"name":"n","type":"long","default":9223372036854775807}]}');
    expect((schema as any).fields[0].default).toEqual(new ExactNumber('9223372036854775807'));
  });

  it('the input text is the only input: two calls give equal, independent results', () => {
    const body = text({ type: 'record', name: 'a.R', fields: [] });
    const first = avroPayload(body).schema as any;
    first.name = 'changed';
    expect((avroPayload(body).schema as any).name).toBe('R');
  });
});

describe('the message keeps what the payload cannot show', () => {
  const side = (schema: unknown) => ({ type: 'AVRO', schema: { version: '1', body: text(schema) } });

  it('a lost alias: the spelled payload plus the uploaded text in x-avro-schema', () => {
    const schema = { type: 'record', name: 'Order', namespace: 'io.shop', aliases: ['io.legacy.Order'], fields: [] };
    const m = valueMessage(side(schema));
    expect(m.schemaFormat).toBe('application/vnd.apache.avro;version=1.9.0');
    expect(m.extensions).toEqual({ 'x-avro-schema': text(schema) });
  });

  it('a $ref attribute: a binary payload without schemaFormat, the text in x-avro-schema', () => {
    const schema = { type: 'record', name: 'R', fields: [{ name: 'a', type: 'string', $ref: 'x' }] };
    const m = valueMessage(side(schema));
    expect(m).toEqual({ contentType: 'avro/binary', payload: { type: 'string', format: 'binary' }, extensions: { 'x-avro-schema': text(schema) } });
  });

  it('the key: the spelled schema, and x-avro-key-schema when something is lost', () => {
    expect(keyBinding(side({ type: 'record', name: 'k.Key', fields: [] }))).toEqual({ key: { type: 'record', name: 'Key', namespace: 'k', fields: [] }, extensions: {} });
    const lossy = { type: 'record', name: 'Key', aliases: ['other.Key'], fields: [] };
    expect(keyBinding(side(lossy)).extensions).toEqual({ 'x-avro-key-schema': text(lossy) });
    const ref = { type: 'record', name: 'Key', fields: [], $ref: 'x' };
    expect(keyBinding(side(ref))).toEqual({ key: { type: 'string', format: 'binary' }, extensions: { 'x-avro-key-schema': text(ref) } });
  });
});
