/**
 * Requests exactly as the Axual Terraform provider's HTTP client (`axual-webclient/client.go`) sends them: every
 * call carries `Realm`, `Accept: application/hal+json` and `Content-Type: application/json` (GET and DELETE too),
 * bodies are Go's json.Marshal output (nil slices and maps as `null`), query values go through url.QueryEscape.
 */
import { type TestApp } from './app';
import { call, type CallResult } from './http';

/** Go's url.QueryEscape: like encodeURIComponent, but a space is `+` and `!'()*` are escaped too. */
export const queryEscape = (s: string): string =>
  encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function terraformCall(app: TestApp, realm: string, token: string, method: string, path: string, body?: unknown): Promise<CallResult> {
  return call(app, method, path, {
    token,
    headers: { Realm: realm, Accept: 'application/hal+json', 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
  });
}

/**
 * The provider's doRequest: only 200, 201 and 204 succeed; 404 becomes NotFoundError, 422 UnprocessableEntityError
 * (its body dropped), any other status an error carrying the body.
 */
export const goOk = (res: CallResult): boolean => [200, 201, 204].includes(res.status);
