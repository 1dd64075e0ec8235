/**
 * The API through the project's typed client: every path, parameter and body typed from the OpenAPI document, the
 * person's access token on each request. `read` turns a call's `{ data, error }` into data or an ApiFailure that
 * pages show next to the field it names.
 */
import { createPlatformClient, type ApiError } from '@platform-management-service/client';
import { config } from './config';
import { accessToken } from './auth/session';

export const api = createPlatformClient({ baseUrl: config.api, getToken: async () => (await accessToken()) ?? '' });

/** The §7 body's headline when it only names the status; its `errors` then say what happened. */
const GENERIC = new Set(['Bad request', 'Conflict', 'Unprocessable entity', 'Precondition failed']);

export class ApiFailure extends Error {
  constructor(readonly status: number, readonly body: ApiError | undefined) {
    super(body && GENERIC.has(body.message) && body.errors?.length ? body.errors.join('; ') : body?.message ?? `The service answered ${status}`);
  }

  /**
   * What the API says of `field`: its sub-error, or an entry of `errors` that names it (`version: '1.0.0' already
   * exists`: a uniqueness clash names the field the request sent, with no sub-error).
   */
  fieldError(field: string): string | undefined {
    const sub = this.body?.subErrors?.find((e) => e.field === field)?.message;
    if (sub) return sub;
    const named = this.body?.errors?.find((e) => e.startsWith(`${field}: `));
    return named?.slice(field.length + 2);
  }
}

/** The data of a successful call, or an ApiFailure (a network failure stays the browser's TypeError). */
export async function read<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new ApiFailure(response.status, error as ApiError | undefined);
  return data;
}

/** What a failed query says to the person. */
export function failureText(err: unknown): string {
  if (err instanceof ApiFailure) return err.status === 403 ? `You may not see this: ${err.message}` : err.message;
  return 'The service could not be reached. Check the connection and try again.';
}
