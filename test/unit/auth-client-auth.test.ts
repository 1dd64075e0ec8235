/** How the token endpoint reads a client's identity from the form and the Authorization header (pure parsing). */
import { describe, expect, it } from 'vitest';
import { JWT_BEARER_ASSERTION, readClientAssertion, readClientCredentials } from '../../auth/client-auth';
import { OAuthError } from '../../auth/oauth-error';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;
type Form = Record<string, string | undefined>;

function oauthError(fn: () => unknown): { status: number; error: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OAuthError);
    return { status: (err as OAuthError).status, error: (err as OAuthError).error };
  }
  throw new Error('expected an OAuthError');
}

describe('readClientCredentials', () => {
  it.each<[string, string | undefined, Form, object | undefined]>([
    ['form id and secret', undefined, { client_id: 'ci', client_secret: 's' }, { clientId: 'ci', clientSecret: 's', method: 'post' }],
    ['form id only', undefined, { client_id: 'self-service' }, { clientId: 'self-service', clientSecret: undefined, method: 'post' }],
    ['Basic, empty secret', basic('self-service:'), {}, { clientId: 'self-service', clientSecret: '', method: 'basic' }],
    ['Basic, form-encoded parts', basic('ci%2Bbot:se%3Acr+et%25'), {}, { clientId: 'ci+bot', clientSecret: 'se:cr et%', method: 'basic' }],
    ['Basic plus the same client_id in the form', basic('ci:s'), { client_id: 'ci' }, { clientId: 'ci', clientSecret: 's', method: 'basic' }],
    ['a Bearer header is not client authentication', 'Bearer abc', { client_id: 'ci' }, { clientId: 'ci', clientSecret: undefined, method: 'post' }],
    ['nothing', undefined, {}, undefined],
    ['an empty client_id', undefined, { client_id: '' }, undefined],
  ])('%s', (_case, authorization, form, expected) => {
    expect(readClientCredentials(authorization, form)).toEqual(expected);
  });

  it.each<[string, string, Form, number, string]>([
    ['Basic without a colon', basic('ci'), {}, 401, 'invalid_client'],
    ['Basic with an empty id', basic(':secret'), {}, 401, 'invalid_client'],
    ['Basic with a broken escape', basic('ci:%zz'), {}, 401, 'invalid_client'],
    ['Basic and a different form client_id', basic('ci:s'), { client_id: 'other' }, 401, 'invalid_client'],
    ['Basic and a form secret', basic('ci:s'), { client_secret: 's' }, 400, 'invalid_request'],
  ])('%s → %i %s', (_case, authorization, form, status, error) => {
    expect(oauthError(() => readClientCredentials(authorization, form))).toEqual({ status, error });
  });
});

describe('readClientAssertion', () => {
  const withAssertion = { client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: 'a.b.c' };

  it.each<[string, string | undefined, Form, string | undefined]>([
    ['an assertion of the jwt-bearer type', undefined, withAssertion, 'a.b.c'],
    ['with a client_id beside it (checked by the grant)', undefined, { ...withAssertion, client_id: 'ci' }, 'a.b.c'],
    ['no assertion at all', undefined, { client_id: 'ci', client_secret: 's' }, undefined],
    ['both fields empty', undefined, { client_assertion_type: '', client_assertion: '' }, undefined],
  ])('%s', (_case, authorization, form, expected) => {
    expect(readClientAssertion(authorization, form)).toBe(expected);
  });

  it.each<[string, string | undefined, Form]>([
    ['a type without an assertion', undefined, { client_assertion_type: JWT_BEARER_ASSERTION }],
    ['an assertion without a type', undefined, { client_assertion: 'a.b.c' }],
    ['another type', undefined, { ...withAssertion, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer' }],
    ['an assertion and a client secret', undefined, { ...withAssertion, client_secret: 's' }],
    ['an assertion and Basic', basic('ci:s'), withAssertion],
  ])('%s → 400 invalid_request', (_case, authorization, form) => {
    expect(oauthError(() => readClientAssertion(authorization, form))).toEqual({ status: 400, error: 'invalid_request' });
  });
});
