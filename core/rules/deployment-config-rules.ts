/**
 * Checks of a deployment's `configs` (docs/contract.md §5.15), run at POST, PUT and START: Connector configs against
 * their plugin's definitions and Kafka Connect's standard keys, Ksml configs against what the runner reads.
 * Values are parsed as Kafka's ConfigDef parses them (trimmed; booleans in any case). Unknown keys pass.
 */
import yaml from 'js-yaml';
import type { SubError } from '../errors';

export const INVALID_CONFIG = 'Invalid config uploaded';
export const KSML_DEFINITION_MISSING = 'KSML_DEFINITION must be provided';

export const CONFIG_TYPES = ['STRING', 'INT', 'LONG', 'DOUBLE', 'BOOLEAN', 'LIST', 'CLASS', 'PASSWORD'] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

export interface ConfigDefinition {
  name: string;
  /** One of CONFIG_TYPES; anything else is taken as STRING. */
  type: string;
  required: boolean;
  defaultValue?: string | null;
}

export interface ConnectPluginDefinitions { configDefinitions: ConfigDefinition[] }

type Configs = Record<string, unknown>;

const INT_RANGE = [-(2n ** 31n), 2n ** 31n - 1n] as const;
const LONG_RANGE = [-(2n ** 63n), 2n ** 63n - 1n] as const;

const integerIn = ([min, max]: readonly [bigint, bigint]) => (v: string) => /^[+-]?[0-9]{1,20}$/.test(v) && BigInt(v) >= min && BigInt(v) <= max;
/** A Java binary class name: dotted identifiers, `$` for nested classes. */
const CLASS_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/** Whether a trimmed, non-empty value parses as `type`. */
const PARSES: Record<ConfigType, (v: string) => boolean> = {
  STRING: () => true,
  PASSWORD: () => true,
  INT: integerIn(INT_RANGE),
  LONG: integerIn(LONG_RANGE),
  DOUBLE: (v) => /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(v) && Number.isFinite(Number(v)),
  BOOLEAN: (v) => /^(?:true|false)$/i.test(v),
  // Kafka splits on commas; an empty element ("a,,b", "a,") is a typo, never a value.
  LIST: (v) => v.split(',').every((item) => item.trim() !== ''),
  CLASS: (v) => CLASS_NAME.test(v),
};

interface KeyRule { type: ConfigType; required: boolean; hasDefault: boolean; atLeast?: bigint }

/** Kafka Connect's own connector keys that are checked whatever the plugin. */
const STANDARD_KEYS: Record<string, KeyRule> = {
  'tasks.max': { type: 'INT', required: false, hasDefault: true, atLeast: 1n },
  'key.converter': { type: 'CLASS', required: false, hasDefault: true },
  'value.converter': { type: 'CLASS', required: false, hasDefault: true },
  'header.converter': { type: 'CLASS', required: false, hasDefault: true },
};

/**
 * One problem per key: a known key whose value does not parse as its type, or a required key without a value
 * and without a default. `plugin` null (the application's class is no known plugin) checks the standard keys only.
 */
export function connectorConfigProblems(configs: Configs | null | undefined, plugin: ConnectPluginDefinitions | null): SubError[] {
  const rules = new Map<string, KeyRule>(Object.entries(STANDARD_KEYS));
  for (const d of plugin?.configDefinitions ?? []) {
    const type = (CONFIG_TYPES as readonly string[]).includes(d.type) ? (d.type as ConfigType) : 'STRING';
    const standard = STANDARD_KEYS[d.name];
    // A plugin may redefine a standard key; Kafka Connect's own lower bound still holds for it.
    const atLeast = type === 'INT' || type === 'LONG' ? standard?.atLeast : undefined;
    rules.set(d.name, { type, required: Boolean(d.required), hasDefault: d.defaultValue !== null && d.defaultValue !== undefined, atLeast });
  }
  const problems: SubError[] = [];
  for (const [key, rule] of rules) {
    const present = configs != null && Object.hasOwn(configs, key);
    const value = present ? configs[key] : undefined;
    if (!valueFits(value, rule)) {
      const problem: SubError = { field: `configs.${key}`, message: INVALID_CONFIG };
      if (present && rule.type !== 'PASSWORD') problem.rejectedValue = value;
      problems.push(problem);
    }
  }
  return problems;
}

function valueFits(value: unknown, rule: KeyRule): boolean {
  if (value === undefined || value === null) return !rule.required || rule.hasDefault;
  if (typeof value !== 'string') return false;
  const v = value.trim();
  // Blank stands for "not set": Kafka would take "" for a STRING, but a required key set to nothing is missing.
  if (v === '') return rule.type === 'STRING' || rule.type === 'PASSWORD' || rule.type === 'LIST' ? !rule.required || rule.hasDefault : false;
  if (!PARSES[rule.type](v)) return false;
  return rule.atLeast === undefined || BigInt(v) >= rule.atLeast;
}

/** The connector's task count: `tasks.max` when it is a valid one, else Kafka Connect's default of 1. */
export function tasksMax(configs: Configs | null | undefined): number {
  const value = configs && Object.hasOwn(configs, 'tasks.max') ? configs['tasks.max'] : undefined;
  return typeof value === 'string' && valueFits(value, STANDARD_KEYS['tasks.max']) ? Number(value.trim()) : 1;
}

export const KSML_SIZES = ['XS', 'S', 'M', 'L', 'XL'] as const;
export type KsmlSize = (typeof KSML_SIZES)[number];
export const KSML_RESTART_POLICIES = ['on_exit', 'never'] as const;
export type KsmlRestartPolicy = (typeof KSML_RESTART_POLICIES)[number];

/** Problems of a Ksml deployment's configs: the definition must be there and be a YAML mapping; size and policy from their lists. */
export function ksmlConfigProblems(configs: Configs | null | undefined): SubError[] {
  const problems: SubError[] = [];
  const get = (key: string) => (configs && Object.hasOwn(configs, key) ? configs[key] : undefined);

  const definition = get('ksml_definition');
  if (definition === undefined || definition === null || (typeof definition === 'string' && definition.trim() === '')) {
    problems.push({ field: 'configs.ksml_definition', message: KSML_DEFINITION_MISSING });
  } else if (!isYamlMapping(definition)) {
    // The definition can be long; the message is enough to find it.
    problems.push({ field: 'configs.ksml_definition', message: INVALID_CONFIG });
  }
  for (const [key, allowed] of [['ksml_deployment_size', KSML_SIZES], ['ksml_restart_policy', KSML_RESTART_POLICIES]] as const) {
    const value = get(key);
    if (value !== undefined && value !== null && !(allowed as readonly unknown[]).includes(value)) {
      problems.push({ field: `configs.${key}`, message: INVALID_CONFIG, rejectedValue: value });
    }
  }
  return problems;
}

/** What the KSML runner is started with; absent (or, outside the checks, invalid) values take the defaults. */
export function ksmlRuntime(configs: Configs | null | undefined): { size: KsmlSize; restartPolicy: KsmlRestartPolicy } {
  const get = (key: string) => (configs && Object.hasOwn(configs, key) ? configs[key] : undefined);
  const size = get('ksml_deployment_size');
  const policy = get('ksml_restart_policy');
  return {
    size: (KSML_SIZES as readonly unknown[]).includes(size) ? (size as KsmlSize) : 'S',
    restartPolicy: (KSML_RESTART_POLICIES as readonly unknown[]).includes(policy) ? (policy as KsmlRestartPolicy) : 'on_exit',
  };
}

/** A scalar or an empty document parses as YAML too, but it defines no streams or pipelines: a definition is a mapping. */
function isYamlMapping(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    const doc = yaml.load(text);
    return doc !== null && typeof doc === 'object' && !Array.isArray(doc);
  } catch {
    return false;
  }
}
