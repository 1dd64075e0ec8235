/** `TRUSTED_ISSUERS` (docs/contract.md §1.1): parsed once at start; anything malformed stops the start with a clear message. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config';

const load = (TRUSTED_ISSUERS: string | undefined) => loadConfig({ TRUSTED_ISSUERS }).trustedIssuers;

describe('TRUSTED_ISSUERS', () => {
  it.each([undefined, '', '  ', '[]'])('%j → none', (raw) => {
    expect(load(raw)).toEqual([]);
  });

  it('reads issuers, JWKS URIs and audiences (a single audience becomes a list)', () => {
    expect(load(JSON.stringify([
      { issuer: 'https://token.actions.githubusercontent.com', jwksUri: 'https://token.actions.githubusercontent.com/.well-known/jwks' },
      { issuer: 'https://kubernetes.default.svc', jwksUri: 'http://10.0.0.1/openid/v1/jwks', audience: 'pms' },
      { issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks', audience: ['pms', 'api'], note: 'ignored' },
    ]))).toEqual([
      { issuer: 'https://token.actions.githubusercontent.com', jwksUri: 'https://token.actions.githubusercontent.com/.well-known/jwks' },
      { issuer: 'https://kubernetes.default.svc', jwksUri: 'http://10.0.0.1/openid/v1/jwks', audience: ['pms'] },
      { issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks', audience: ['pms', 'api'] },
    ]);
  });

  it.each([
    ['not JSON', '[{issuer:', /^TRUSTED_ISSUERS is not valid JSON/],
    ['not an array', '{"issuer":"https://a","jwksUri":"https://a/jwks"}', /must be a JSON array/],
    ['an entry that is not an object', '["https://a"]', /TRUSTED_ISSUERS\[0\] must be an object/],
    ['no issuer', '[{"jwksUri":"https://a/jwks"}]', /TRUSTED_ISSUERS\[0\]\.issuer/],
    ['a blank issuer', '[{"issuer":" ","jwksUri":"https://a/jwks"}]', /TRUSTED_ISSUERS\[0\]\.issuer/],
    ['no jwksUri', '[{"issuer":"https://a"}]', /TRUSTED_ISSUERS\[0\]\.jwksUri/],
    ['a jwksUri that is no URL', '[{"issuer":"https://a","jwksUri":"jwks.json"}]', /jwksUri must be an http\(s\) URL/],
    ['a jwksUri of another scheme', '[{"issuer":"https://a","jwksUri":"file:///etc/jwks"}]', /jwksUri must be an http\(s\) URL/],
    ['an empty audience list', '[{"issuer":"https://a","jwksUri":"https://a/jwks","audience":[]}]', /audience/],
    ['a non-string audience', '[{"issuer":"https://a","jwksUri":"https://a/jwks","audience":[1]}]', /audience/],
    ['an issuer listed twice', '[{"issuer":"https://a","jwksUri":"https://a/1"},{"issuer":"https://a","jwksUri":"https://a/2"}]', /TRUSTED_ISSUERS\[1\]\.issuer .* twice/],
  ])('%s → ConfigError', (_case, raw, message) => {
    expect(() => load(raw)).toThrow(ConfigError);
    expect(() => load(raw)).toThrow(message);
  });
});
