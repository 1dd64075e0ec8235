/** Deployment config checks against docs/contract.md §5.15, with the connect plugins the tenant seeds carry (§5.16). */
import { describe, expect, it } from 'vitest';
import {
  connectorConfigProblems, INVALID_CONFIG, KSML_DEFINITION_MISSING, ksmlConfigProblems, ksmlRuntime, tasksMax,
  type ConfigDefinition, type ConnectPluginDefinitions,
} from '../../core/rules/deployment-config-rules';

const def = (name: string, type: string, required = false, defaultValue: string | null = null): ConfigDefinition => ({ name, type, required, defaultValue });

/** The seeded LogSourceConnector and FileStreamSinkConnector. */
const LOG_SOURCE: ConnectPluginDefinitions = { configDefinitions: [def('topic', 'STRING', true), def('logger.name', 'STRING'), def('throughput', 'INT')] };
const FILE_SINK: ConnectPluginDefinitions = { configDefinitions: [def('topics', 'LIST', true), def('file', 'STRING')] };

/** One definition of every type, none required. */
const TYPED: ConnectPluginDefinitions = {
  configDefinitions: [
    def('s', 'STRING'), def('i', 'INT'), def('l', 'LONG'), def('d', 'DOUBLE'), def('b', 'BOOLEAN'), def('list', 'LIST'), def('c', 'CLASS'), def('p', 'PASSWORD'), def('odd', 'SHORT'),
  ],
};

const fields = (configs: Record<string, unknown> | null, plugin: ConnectPluginDefinitions | null = TYPED) => connectorConfigProblems(configs, plugin).map((p) => p.field);

describe('connectorConfigProblems: values of known keys', () => {
  it.each([
    ['s', ''], ['s', 'anything, really'], ['p', ''], ['p', 's3cret'],
    ['i', '0'], ['i', '-2147483648'], ['i', '2147483647'], ['i', ' 42 '], ['i', '+7'],
    ['l', '-9223372036854775808'], ['l', '9223372036854775807'], ['l', '12'],
    ['d', '0'], ['d', '-1.5'], ['d', '1e3'], ['d', '.5'], ['d', '5.'], ['d', '2.5E-3'],
    ['b', 'true'], ['b', 'FALSE'], ['b', 'True'], ['b', ' false '],
    ['list', 'a'], ['list', 'a,b'], ['list', 'a, b ,c'], ['list', ''],
    ['c', 'org.apache.kafka.connect.storage.StringConverter'], ['c', 'Outer$Inner'], ['c', 'io.confluent.connect.avro.AvroConverter'], ['c', 'émoji.Klasse'],
    ['odd', 'whatever'],
  ])('accepts %s = %j', (key, value) => expect(fields({ [key]: value })).toEqual([]));

  it.each([
    ['i', ''], ['i', '2147483648'], ['i', '-2147483649'], ['i', '1.0'], ['i', '1e3'], ['i', 'one'], ['i', '0x10'],
    ['l', '9223372036854775808'], ['l', '-9223372036854775809'], ['l', '99999999999999999999999'], ['l', '3 4'],
    ['d', ''], ['d', 'abc'], ['d', 'NaN'], ['d', 'Infinity'], ['d', '1e999'], ['d', '1,5'], ['d', '.'], ['d', '0x1p3'],
    ['b', 'yes'], ['b', '1'], ['b', ''], ['b', 'truee'],
    ['list', 'a,,b'], ['list', 'a,'], ['list', ',a'], ['list', ' , '],
    ['c', ''], ['c', '1abc.Foo'], ['c', 'org..Foo'], ['c', 'org.Foo.'], ['c', 'org/Foo'], ['c', 'a b'],
    ['i', 5], ['b', true], ['s', 5], ['list', ['a']],
  ])('refuses %s = %j', (key, value) => {
    expect(connectorConfigProblems({ [key]: value }, TYPED)).toEqual([{ field: `configs.${key}`, message: INVALID_CONFIG, rejectedValue: value }]);
  });

  it('never echoes a PASSWORD value', () => {
    const plugin = { configDefinitions: [def('secret', 'PASSWORD', true)] };
    expect(connectorConfigProblems({ secret: 7 }, plugin)).toEqual([{ field: 'configs.secret', message: INVALID_CONFIG }]);
  });

  it('lets unknown keys pass, __proto__ included', () => {
    expect(fields(JSON.parse('{"whatever":"x","__proto__":"y","connector.class":"!"}'))).toEqual([]);
  });

  it('reports one problem per key, in definition order', () => {
    expect(fields({ i: 'x', b: 'x', c: '1' })).toEqual(['configs.i', 'configs.b', 'configs.c']);
  });
});

describe('connectorConfigProblems: required keys', () => {
  it('names a missing required key, without a value', () => {
    expect(connectorConfigProblems({}, LOG_SOURCE)).toEqual([{ field: 'configs.topic', message: INVALID_CONFIG }]);
    expect(fields(null, FILE_SINK)).toEqual(['configs.topics']);
    expect(fields(undefined as unknown as null, FILE_SINK)).toEqual(['configs.topics']);
  });

  it.each([[''], ['  '], [null]])('counts a required key set to %j as missing', (value) => {
    expect(fields({ topic: value }, LOG_SOURCE)).toEqual(['configs.topic']);
    expect(fields({ topics: value }, FILE_SINK)).toEqual(['configs.topics']);
  });

  it('is satisfied by a value or by a default', () => {
    expect(fields({ topic: 'logs', throughput: '10' }, LOG_SOURCE)).toEqual([]);
    expect(fields({ topics: 'a,b', file: '/tmp/out' }, FILE_SINK)).toEqual([]);
    expect(fields({}, { configDefinitions: [def('mode', 'STRING', true, 'bulk'), def('n', 'INT', true, '1')] })).toEqual([]);
    expect(fields({ mode: '' }, { configDefinitions: [def('mode', 'STRING', true, 'bulk')] })).toEqual([]);
  });

  it('checks a seeded plugin’s typed keys too', () => {
    expect(fields({ topic: 'logs', throughput: 'fast' }, LOG_SOURCE)).toEqual(['configs.throughput']);
  });
});

describe('connectorConfigProblems: Kafka Connect’s standard keys', () => {
  it.each([[null], [LOG_SOURCE]])('checks tasks.max and the converters with plugin %#', (plugin) => {
    const base = plugin ? { topic: 't' } : {};
    expect(fields({ ...base, 'tasks.max': '1', 'key.converter': 'org.apache.kafka.connect.json.JsonConverter', 'value.converter': 'a.B', 'header.converter': 'a.C' }, plugin)).toEqual([]);
    expect(fields({ ...base, 'tasks.max': '0', 'key.converter': 'not a class', 'value.converter': '', 'header.converter': '1' }, plugin))
      .toEqual(['configs.tasks.max', 'configs.key.converter', 'configs.value.converter', 'configs.header.converter']);
  });

  it.each([['1', true], ['8', true], [' 3 ', true], ['0', false], ['-1', false], ['1.5', false], ['', false], ['2147483648', false], ['many', false]])('tasks.max %j fits: %s', (value, fits) => {
    expect(fields({ 'tasks.max': value }, null)).toEqual(fits ? [] : ['configs.tasks.max']);
  });

  it('keeps tasks.max ≥ 1 when a plugin redefines it, and drops the bound if it makes it a string', () => {
    expect(fields({ 'tasks.max': '0' }, { configDefinitions: [def('tasks.max', 'INT')] })).toEqual(['configs.tasks.max']);
    expect(fields({ 'tasks.max': 'zero' }, { configDefinitions: [def('tasks.max', 'STRING')] })).toEqual([]);
  });

  it('needs none of them', () => expect(fields({}, null)).toEqual([]));
});

describe('tasksMax', () => {
  it.each([
    [{}, 1], [null, 1], [{ 'tasks.max': '4' }, 4], [{ 'tasks.max': ' 2 ' }, 2], [{ 'tasks.max': '0' }, 1], [{ 'tasks.max': 'x' }, 1], [{ 'tasks.max': 3 }, 1],
  ])('%j → %d', (configs, expected) => expect(tasksMax(configs)).toBe(expected));
});

describe('ksmlConfigProblems', () => {
  const DEFINITION = 'streams:\n  input:\n    topic: in\n    keyType: string\n    valueType: json\npipelines:\n  main:\n    from: input\n    to: out\n';

  it('accepts a YAML mapping with valid runtime settings, and no settings at all', () => {
    expect(ksmlConfigProblems({ ksml_definition: DEFINITION })).toEqual([]);
    expect(ksmlConfigProblems({ ksml_definition: '{"pipelines": {}}' })).toEqual([]);
    for (const size of ['XS', 'S', 'M', 'L', 'XL']) {
      for (const policy of ['on_exit', 'never']) {
        expect(ksmlConfigProblems({ ksml_definition: DEFINITION, ksml_deployment_size: size, ksml_restart_policy: policy })).toEqual([]);
      }
    }
  });

  it.each([[{}], [null], [{ ksml_definition: '' }], [{ ksml_definition: ' \n ' }], [{ ksml_definition: null }], [{ KSML_DEFINITION: DEFINITION }]])('%j lacks the definition', (configs) => {
    expect(ksmlConfigProblems(configs)).toEqual([{ field: 'configs.ksml_definition', message: KSML_DEFINITION_MISSING }]);
  });

  it.each([
    ['broken YAML', 'streams: [unclosed'],
    ['a tab-indented mapping', 'streams:\n\tinput: x'],
    ['a duplicate key', 'a: 1\na: 2'],
    ['two documents', 'a: 1\n---\nb: 2'],
    ['a scalar', 'just text'],
    ['a number', '42'],
    ['a sequence', '- a\n- b'],
    ['an empty document', '---\n'],
    ['a comment only', '# nothing here'],
    ['a null document', 'null'],
    ['a non-string', 42],
  ])('refuses %s as the definition', (_label, definition) => {
    expect(ksmlConfigProblems({ ksml_definition: definition })).toEqual([{ field: 'configs.ksml_definition', message: INVALID_CONFIG }]);
  });

  it.each([
    ['ksml_deployment_size', 'XXL'], ['ksml_deployment_size', 's'], ['ksml_deployment_size', ''], ['ksml_deployment_size', 1],
    ['ksml_restart_policy', 'always'], ['ksml_restart_policy', 'ON_EXIT'], ['ksml_restart_policy', 'on-exit'], ['ksml_restart_policy', ''],
  ])('refuses %s = %j', (key, value) => {
    expect(ksmlConfigProblems({ ksml_definition: DEFINITION, [key]: value })).toEqual([{ field: `configs.${key}`, message: INVALID_CONFIG, rejectedValue: value }]);
  });

  it('reports every problem, the definition first', () => {
    expect(ksmlConfigProblems({ ksml_deployment_size: 'XXL', ksml_restart_policy: 'always' }).map((p) => `${p.field}: ${p.message}`)).toEqual([
      'configs.ksml_definition: KSML_DEFINITION must be provided',
      'configs.ksml_deployment_size: Invalid config uploaded',
      'configs.ksml_restart_policy: Invalid config uploaded',
    ]);
  });

  it('lets unknown keys pass', () => {
    expect(ksmlConfigProblems({ ksml_definition: DEFINITION, something_else: '!' })).toEqual([]);
  });
});

describe('ksmlRuntime', () => {
  it.each([
    [{}, { size: 'S', restartPolicy: 'on_exit' }],
    [null, { size: 'S', restartPolicy: 'on_exit' }],
    [{ ksml_deployment_size: 'XL', ksml_restart_policy: 'never' }, { size: 'XL', restartPolicy: 'never' }],
    [{ ksml_deployment_size: 'XS' }, { size: 'XS', restartPolicy: 'on_exit' }],
    [{ ksml_deployment_size: 'huge', ksml_restart_policy: 'sometimes' }, { size: 'S', restartPolicy: 'on_exit' }],
  ])('%j → %j', (configs, expected) => expect(ksmlRuntime(configs)).toEqual(expected));
});
