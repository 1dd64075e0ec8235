/** Credential targets, types and usernames against docs/contract.md §5.12 and §4.3. */
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_TARGETS, CREDENTIAL_TYPES, credentialUsername, providerOf, resolveCredentialTypes, scramMechanismOf, TARGET_RULES,
  type CredentialTypeInput,
} from '../../core/rules/credential-rules';

const resolved = (input: CredentialTypeInput) => {
  const r = resolveCredentialTypes(input);
  return r.kind === 'resolved' ? `${r.target}: ${r.types.join(' ')}` : r.problems.map((p) => p.field).join(' ');
};

describe('targets and their types', () => {
  it('KAFKA takes SCRAM_SHA_256, SCRAM_SHA_512, PLAIN; SCHEMA_REGISTRY takes the two registry types', () => {
    expect(TARGET_RULES.KAFKA.types).toEqual(['SCRAM_SHA_256', 'SCRAM_SHA_512', 'PLAIN']);
    expect(TARGET_RULES.SCHEMA_REGISTRY.types).toEqual(['SCHEMA_REGISTRY_BASIC_AUTH', 'SCHEMA_REGISTRY_OAUTH']);
    expect(CREDENTIAL_TYPES.filter((t) => !CREDENTIAL_TARGETS.some((g) => TARGET_RULES[g].types.includes(t)))).toEqual([]);
  });

  it('names the provider per target', () => {
    expect(providerOf('KAFKA')).toBe('apache-kafka');
    expect(providerOf('SCHEMA_REGISTRY')).toBe('schema-registry');
  });

  it('maps the SCRAM types to their mechanisms', () => {
    expect(CREDENTIAL_TYPES.map(scramMechanismOf)).toEqual(['SCRAM-SHA-256', 'SCRAM-SHA-512', null, null, null]);
  });
});

describe('resolveCredentialTypes', () => {
  it.each([
    [{}, 'KAFKA: SCRAM_SHA_512'],
    [{ target: null, type: null, types: null }, 'KAFKA: SCRAM_SHA_512'],
    [{ target: '', type: '', types: [] }, 'KAFKA: SCRAM_SHA_512'],
    [{ target: 'KAFKA' }, 'KAFKA: SCRAM_SHA_512'],
    [{ target: 'SCHEMA_REGISTRY' }, 'SCHEMA_REGISTRY: SCHEMA_REGISTRY_BASIC_AUTH'],
    [{ type: 'PLAIN' }, 'KAFKA: PLAIN'],
    [{ type: 'SCRAM_SHA_256' }, 'KAFKA: SCRAM_SHA_256'],
    [{ types: [{ type: 'SCRAM_SHA_256' }, { type: 'SCRAM_SHA_512' }] }, 'KAFKA: SCRAM_SHA_256 SCRAM_SHA_512'],
    [{ types: ['PLAIN'] }, 'KAFKA: PLAIN'],
    [{ type: 'PLAIN', types: [{ type: 'SCRAM_SHA_256' }] }, 'KAFKA: PLAIN SCRAM_SHA_256'],
    [{ type: 'PLAIN', types: [{ type: 'PLAIN' }, { type: 'plain' }] }, 'KAFKA: PLAIN'],
    [{ target: 'SCHEMA_REGISTRY', type: 'SCHEMA_REGISTRY_OAUTH' }, 'SCHEMA_REGISTRY: SCHEMA_REGISTRY_OAUTH'],
  ])('%j → %s', (input, expected) => expect(resolved(input)).toBe(expected));

  it.each([
    [{ target: 'kafka', type: 'scram-sha-256' }, 'KAFKA: SCRAM_SHA_256'],
    [{ target: 'Schema Registry', type: 'schemaRegistryBasicAuth' }, 'SCHEMA_REGISTRY: SCHEMA_REGISTRY_BASIC_AUTH'],
    [{ target: 'schema-registry' }, 'SCHEMA_REGISTRY: SCHEMA_REGISTRY_BASIC_AUTH'],
  ])('matches names ignoring case, spaces, _ and -: %j', (input, expected) => expect(resolved(input)).toBe(expected));

  it.each([
    [{ target: 'KAFKA', type: 'SCHEMA_REGISTRY_BASIC_AUTH' }, 'type'],
    [{ target: 'SCHEMA_REGISTRY', type: 'SCRAM_SHA_512' }, 'type'],
    [{ target: 'SCHEMA_REGISTRY', types: [{ type: 'SCHEMA_REGISTRY_OAUTH' }, { type: 'PLAIN' }] }, 'types[1].type'],
    [{ types: ['SCRAM_SHA_256', 'SCHEMA_REGISTRY_OAUTH'] }, 'types[1]'],
    [{ type: 'SCRAM_SHA_1' }, 'type'],
    [{ type: 5 }, 'type'],
    [{ types: [{}] }, 'types[0].type'],
    [{ types: [null] }, 'types[0]'],
    [{ types: 'PLAIN' }, 'types'],
    [{ type: 'OAUTH', types: [{ type: 'nope' }] }, 'type types[0].type'],
    [{ target: 'REGISTRY' }, 'target'],
    [{ target: 3, type: 'nope' }, 'target'],
  ])('%j is refused naming %s', (input, fields) => expect(resolved(input)).toBe(fields));

  it('says why a type does not fit and keeps the value sent', () => {
    expect(resolveCredentialTypes({ target: 'SCHEMA_REGISTRY', type: 'scram_sha_512' })).toEqual({
      kind: 'refused',
      problems: [{ field: 'type', message: 'SCRAM_SHA_512 is not valid for target SCHEMA_REGISTRY; it takes SCHEMA_REGISTRY_BASIC_AUTH, SCHEMA_REGISTRY_OAUTH', rejectedValue: 'scram_sha_512' }],
    });
    expect(resolveCredentialTypes({ type: 'X' })).toEqual({
      kind: 'refused', problems: [{ field: 'type', message: 'must be one of SCRAM_SHA_256, SCRAM_SHA_512, PLAIN', rejectedValue: 'X' }],
    });
    expect(resolveCredentialTypes({ target: 'X' })).toEqual({
      kind: 'refused', problems: [{ field: 'target', message: 'must be one of KAFKA, SCHEMA_REGISTRY', rejectedValue: 'X' }],
    });
  });
});

describe('credentialUsername', () => {
  it('is {app}-{env}-{8 hex}, with a fresh tail each time', () => {
    const names = Array.from({ length: 200 }, () => credentialUsername('payments', 'dev_eu'));
    for (const n of names) expect(n).toMatch(/^payments-dev_eu-[0-9a-f]{8}$/);
    expect(new Set(names).size).toBe(names.length);
  });
});
