/**
 * The one request helper of the tests: `call` sends one HTTP request to the API and answers what a client sees
 * (status, headers, the parsed body and the raw text). The rest are the short forms every suite needs around it.
 */
import type { TestApp } from './app';

export interface CallOptions { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string }
export interface CallResult { status: number; headers: Headers; body: any; text: string }

/** One HTTP call to the API; JSON bodies are sent as application/json unless headers say otherwise. */
export async function call(app: TestApp, method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  let body: string | undefined = o.raw;
  if (o.body !== undefined) {
    body = typeof o.body === 'string' && headers['Content-Type'] ? o.body : JSON.stringify(o.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const url = path.startsWith('http') ? path : `${app.api}${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = text === '' ? undefined : JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * For a step that prepares a test rather than one it asserts: fails with the reply in the message unless the
 * status is `status`, and answers the reply.
 */
export function expectStatus(res: CallResult, status: number): CallResult {
  if (res.status !== status) throw new Error(`${status} expected, got ${res.status} ${res.text}`);
  return res;
}

/** A POST that must create (201); answers the created body. */
export async function created(app: TestApp, path: string, body: unknown, token: string): Promise<any> {
  const res = await call(app, 'POST', path, { token, body });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** The last path segment of a URI: the uid in a Location header or a self link. */
export const lastSegment = (uri: unknown): string => String(uri ?? '').split('/').filter(Boolean).pop() ?? '';

/** `GET /auth`: may the caller of `token` do `action` on a kind of resource, or on one resource of it? */
export const authAnswer = (app: TestApp, token: string, action: string, resourceType: string, resourceUid?: string): Promise<CallResult> =>
  call(app, 'GET', `/auth?action=${action}&resourceType=${resourceType}${resourceUid ? `&resourceUid=${resourceUid}` : ''}`, { token });
