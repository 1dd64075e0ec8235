/**
 * Rules of an application credential (docs/contract.md §5.12): which authentication types each target takes, the
 * defaults, and the generated username. Pure apart from the username's random suffix.
 */
import { matchEnum } from './loose-enum';
import { randomBytes } from 'node:crypto';
import type { SubError } from '../errors';

export const CREDENTIAL_TARGETS = ['KAFKA', 'SCHEMA_REGISTRY'] as const;
export type CredentialTarget = (typeof CREDENTIAL_TARGETS)[number];

export const CREDENTIAL_TYPES = ['SCRAM_SHA_256', 'SCRAM_SHA_512', 'PLAIN', 'SCHEMA_REGISTRY_BASIC_AUTH', 'SCHEMA_REGISTRY_OAUTH'] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

interface TargetRule { types: readonly CredentialType[]; defaultType: CredentialType; provider: string }

export const TARGET_RULES: Record<CredentialTarget, TargetRule> = {
  KAFKA: { types: ['SCRAM_SHA_256', 'SCRAM_SHA_512', 'PLAIN'], defaultType: 'SCRAM_SHA_512', provider: 'apache-kafka' },
  SCHEMA_REGISTRY: { types: ['SCHEMA_REGISTRY_BASIC_AUTH', 'SCHEMA_REGISTRY_OAUTH'], defaultType: 'SCHEMA_REGISTRY_BASIC_AUTH', provider: 'schema-registry' },
};

export const DEFAULT_TARGET: CredentialTarget = 'KAFKA';

/** The `provider` string of the creation reply's `authData`. */
export const providerOf = (target: CredentialTarget) => TARGET_RULES[target].provider;

/** The SCRAM mechanism a type's verifier is made for, or null for types Kafka does not check by SCRAM. */
export function scramMechanismOf(type: CredentialType): 'SCRAM-SHA-256' | 'SCRAM-SHA-512' | null {
  if (type === 'SCRAM_SHA_256') return 'SCRAM-SHA-256';
  if (type === 'SCRAM_SHA_512') return 'SCRAM-SHA-512';
  return null;
}

export interface CredentialTypeInput {
  target?: unknown;
  type?: unknown;
  /** `[{type}]` as the credential object carries them, or bare names. */
  types?: unknown;
}

export type ResolvedTypes =
  | { kind: 'resolved'; target: CredentialTarget; types: CredentialType[] }
  | { kind: 'refused'; problems: SubError[] };

/**
 * The target and types a creation request asks for. Absent target → KAFKA; no type → the target's default;
 * `type` and `types` together are one list, duplicates dropped. Names match as every enum does (§4.3).
 */
export function resolveCredentialTypes(input: CredentialTypeInput): ResolvedTypes {
  const problems: SubError[] = [];
  const target = blank(input.target) ? DEFAULT_TARGET : match(CREDENTIAL_TARGETS, input.target);
  if (!target) {
    return { kind: 'refused', problems: [{ field: 'target', message: `must be one of ${CREDENTIAL_TARGETS.join(', ')}`, rejectedValue: input.target }] };
  }
  const rule = TARGET_RULES[target];

  const asked: Array<{ field: string; value: unknown }> = [];
  if (!blank(input.type)) asked.push({ field: 'type', value: input.type });
  if (Array.isArray(input.types)) {
    input.types.forEach((t, i) => {
      const isObject = t !== null && typeof t === 'object' && !Array.isArray(t);
      asked.push(isObject ? { field: `types[${i}].type`, value: (t as { type?: unknown }).type } : { field: `types[${i}]`, value: t });
    });
  } else if (!blank(input.types)) {
    problems.push({ field: 'types', message: 'must be a list of {type}', rejectedValue: input.types });
  }

  const types: CredentialType[] = [];
  for (const { field, value } of asked) {
    const type = match(CREDENTIAL_TYPES, value);
    if (!type) problems.push({ field, message: `must be one of ${rule.types.join(', ')}`, rejectedValue: value });
    else if (!rule.types.includes(type)) problems.push({ field, message: `${type} is not valid for target ${target}; it takes ${rule.types.join(', ')}`, rejectedValue: value });
    else if (!types.includes(type)) types.push(type);
  }
  if (problems.length > 0) return { kind: 'refused', problems };
  return { kind: 'resolved', target, types: types.length > 0 ? types : [rule.defaultType] };
}

/** `{appShortName}-{envShortName}-{8 hex}`: readable in broker logs and ACLs, unique by its random tail. */
export function credentialUsername(appShortName: string, envShortName: string): string {
  return `${appShortName}-${envShortName}-${randomBytes(4).toString('hex')}`;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

const match = matchEnum;

/** A credential type named loosely (case, spaces, `_`, `-` ignored, §4.3), or undefined when it names none. */
export const parseCredentialType = (value: unknown): CredentialType | undefined => match(CREDENTIAL_TYPES, value);
