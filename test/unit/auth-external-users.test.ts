import { describe, expect, it } from 'vitest';
import {
  cleanName, identityFromClaims, namesFromClaims, rolesFromClaims, serviceAccountClientId, signedInBeforeDeletion,
} from '../../auth/external-users';
import type { AccessClaims } from '../../auth/external-users';
import { HttpError } from '../../core/errors';

const DEFAULTS = ['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR'];
const claims = (extra: Record<string, unknown>): AccessClaims => ({ sub: 'kc-1', exp: 9e9, iat: 1_000, ...extra });

describe('rolesFromClaims', () => {
  it.each([
    ['known roles kept, unknown dropped', ['TENANT_ADMIN', 'offline_access', 'uma_authorization'], ['TENANT_ADMIN']],
    ['any case, canonical output', ['stream_admin', 'Schema_Author'], ['STREAM_ADMIN', 'SCHEMA_AUTHOR']],
    ['all ten', ['SCHEMA_ADMIN', 'STREAM_ADMIN', 'TENANT_ADMIN', 'APPLICATION_ADMIN', 'ENVIRONMENT_ADMIN', 'SUPER_ADMIN',
      'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'SCHEMA_AUTHOR'], ['SCHEMA_ADMIN', 'STREAM_ADMIN', 'TENANT_ADMIN',
      'APPLICATION_ADMIN', 'ENVIRONMENT_ADMIN', 'SUPER_ADMIN', 'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'SCHEMA_AUTHOR']],
    ['duplicates once', ['TENANT_ADMIN', 'tenant_admin'], ['TENANT_ADMIN']],
    ['none known → defaults', ['offline_access'], DEFAULTS],
    ['empty → defaults', [], DEFAULTS],
    ['non-strings ignored', [42, null, { name: 'TENANT_ADMIN' }], DEFAULTS],
  ])('%s', (_case, roles, expected) => {
    expect(rolesFromClaims({ realm_access: { roles } })).toEqual(expected);
  });

  it.each([
    ['no realm_access', {}],
    ['realm_access without roles', { realm_access: {} }],
    ['roles not an array', { realm_access: { roles: 'TENANT_ADMIN' } }],
  ])('%s → defaults', (_case, c) => {
    expect(rolesFromClaims(c)).toEqual(DEFAULTS);
  });
});

describe('namesFromClaims', () => {
  it.each([
    ['given and family', { given_name: 'Ada', family_name: 'Lovelace' }, 'x@y.z', ['Ada', 'Lovelace']],
    ['only name', { name: 'Grace Brewster Hopper' }, 'x@y.z', ['Grace', 'Brewster Hopper']],
    ['given missing, name has two words', { family_name: 'Hopper', name: 'Grace Hopper' }, 'x@y.z', ['Grace', 'Hopper']],
    ['family missing, one-word name', { given_name: 'Cher' }, 'cher@y.z', ['Cher', 'cher']],
    ['nothing, dotted email', {}, 'jane.doe@example.com', ['jane', 'doe']],
    ['nothing, plain email', {}, 'jdoe@example.com', ['jdoe', 'jdoe']],
    ['blank names count as missing', { given_name: '  ', family_name: '\t' }, 'a_b-c@x.y', ['a', 'b c']],
    ['whitespace collapsed, control characters dropped', { given_name: ' Ada\n\u0000 Byron ', family_name: 'King' }, 'x@y.z', ['Ada Byron', 'King']],
  ])('%s', (_case, c, email, [firstName, lastName]) => {
    expect(namesFromClaims(c, email)).toEqual({ firstName, lastName });
  });

  it('names longer than 100 characters are cut to 100', () => {
    const { firstName, lastName } = namesFromClaims({ given_name: 'A'.repeat(150), family_name: '𝔅'.repeat(120) }, 'x@y.z');
    expect(firstName).toHaveLength(100);
    expect([...lastName]).toHaveLength(100);
  });

  it('cleanName of a non-string is empty', () => {
    expect(cleanName(42)).toBe('');
    expect(cleanName(undefined)).toBe('');
  });
});

describe('identityFromClaims', () => {
  it('takes subject, email, names, roles and the sign-in time (auth_time before iat)', () => {
    const identity = identityFromClaims(claims({
      email: ' Ada@Example.com ', given_name: 'Ada', family_name: 'Lovelace', realm_access: { roles: ['TENANT_ADMIN'] }, auth_time: 900,
    }), 'acme');
    expect(identity).toEqual({ subject: 'kc-1', email: 'Ada@Example.com', firstName: 'Ada', lastName: 'Lovelace', roles: ['TENANT_ADMIN'], authTime: 900 });
    expect(identityFromClaims(claims({ email: 'a@b.c' }), 'acme').authTime).toBe(1_000);
  });

  it.each([
    ['no email', {}, 'Token has no email claim'],
    ['empty email', { email: '  ' }, 'Token has no email claim'],
    ['email not a string', { email: ['a@b.c'] }, 'Token has no email claim'],
    ['not an address', { email: 'ada' }, 'Token email is not an e-mail address'],
    ['too long', { email: `${'a'.repeat(251)}@b.cd` }, 'Token email is not an e-mail address'],
    ['explicitly unverified', { email: 'a@b.c', email_verified: false }, 'Token email is not verified'],
  ])('%s → 401', (_case, extra, reason) => {
    let thrown: unknown;
    try { identityFromClaims(claims(extra), 'acme'); } catch (err) { thrown = err; }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(401);
    expect((thrown as HttpError).errors).toEqual([reason]);
  });
});

describe('Keycloak service-account tokens', () => {
  it('are a service account of the azp client, with the derived address and names, email or not', () => {
    const identity = identityFromClaims(claims({ azp: 'ci-deployer', preferred_username: 'service-account-ci-deployer', realm_access: { roles: ['STREAM_AUTHOR'] } }), 'acme');
    expect(identity).toEqual({
      subject: 'kc-1', clientId: 'ci-deployer', email: 'service-account-ci-deployer@acme.local',
      firstName: 'ci-deployer', lastName: 'Service Account', roles: ['STREAM_AUTHOR'], authTime: 1_000,
    });
  });

  it.each([
    ['preferred_username of another client', { azp: 'ci', preferred_username: 'service-account-other', email: 'x@y.z' }],
    ['a person whose name merely starts like one', { azp: 'self-service', preferred_username: 'service-account-fan', email: 'x@y.z' }],
    ['a client id the platform cannot hold', { azp: 'CI_Deployer', preferred_username: 'service-account-CI_Deployer', email: 'x@y.z' }],
  ])('not for %s (then the email rules apply)', (_case, extra) => {
    expect(serviceAccountClientId(claims(extra))).toBeUndefined();
    expect(identityFromClaims(claims(extra), 'acme').clientId).toBeUndefined();
  });
});

describe('signedInBeforeDeletion', () => {
  const deleted = new Date('2026-01-01T12:00:00.500Z');
  const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  it.each([
    ['no deletion', at('2026-01-01T11:00:00Z'), undefined, false],
    ['signed in an hour before', at('2026-01-01T11:00:00Z'), deleted, true],
    ['signed in within the same second (cannot tell: refused)', at('2026-01-01T12:00:00Z'), deleted, true],
    ['signed in the second after', at('2026-01-01T12:00:01Z'), deleted, false],
    ['no time in the token at all', 0, deleted, true],
  ])('%s', (_case, authTime, deletedAt, expected) => {
    expect(signedInBeforeDeletion(authTime, deletedAt)).toBe(expected);
  });
});
