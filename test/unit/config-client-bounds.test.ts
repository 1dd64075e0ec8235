/** The bounds of slow and abusive clients (docs/operations.md): defaults, and malformed values refused naming the variable. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config';
import { serverOptions } from '../../server/connection-limits';

describe('client bounds', () => {
  it('defaults: headers 20 s, the whole request 60 s, 1000 requests a connection, 1000 connections', () => {
    expect(loadConfig({})).toMatchObject({ headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, maxRequestsPerConnection: 1000, maxConnections: 1000 });
  });

  it('each is read from its variable; a longer headers bound raises the default request bound with it', () => {
    const env = { HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '7000', MAX_REQUESTS_PER_CONNECTION: '10', MAX_CONNECTIONS: '64' };
    expect(loadConfig(env)).toMatchObject({ headersTimeoutMs: 5000, requestTimeoutMs: 7000, maxRequestsPerConnection: 10, maxConnections: 64 });
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '90000' }).requestTimeoutMs).toBe(90_000);
  });

  it.each([
    ['HEADERS_TIMEOUT_MS', '0'], ['HEADERS_TIMEOUT_MS', '1.5'], ['REQUEST_TIMEOUT_MS', '-1'], ['REQUEST_TIMEOUT_MS', 'soon'],
    ['MAX_REQUESTS_PER_CONNECTION', '0'], ['MAX_REQUESTS_PER_CONNECTION', 'many'], ['MAX_CONNECTIONS', '1e3x'], ['MAX_CONNECTIONS', '0'],
  ])('%s=%j is refused in one line naming it', (name, raw) => {
    expect(() => loadConfig({ [name]: raw })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: raw })).toThrow(new RegExp(`^${name} must be a positive whole number of \\w+, got "${raw.replace('.', '\\.')}"$`));
  });

  it('headers cannot be given longer than the whole request', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '10000' })).toThrow(/^HEADERS_TIMEOUT_MS \(30000\) must not exceed REQUEST_TIMEOUT_MS \(10000\)/);
  });

  it('node:http looks for expired requests often enough to cut a client off soon after its bound', () => {
    expect(serverOptions(loadConfig({}))).toEqual({ headersTimeout: 20_000, requestTimeout: 60_000, connectionsCheckingInterval: 1_000 });
    expect(serverOptions(loadConfig({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' })).connectionsCheckingInterval).toBe(250);
  });
});
