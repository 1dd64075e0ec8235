/**
 * The API through the project's typed client: every path, parameter and body typed from the OpenAPI document, the
 * person's access token on each request. `read` turns a call's `{ data, error }` into data or an ApiFailure that
 * pages show next to the field it names.
 */
import { createPlatformClient, type ApiError } from '@platform-management-service/client';
import { config } from './config';
import { accessToken } from './auth/session';

export const api = createPlatformClient({ baseUrl: config.api, getToken: async () => (await accessToken()) ?? '' });

export class ApiFailure extends Error {
  constructor(readonly status: number, readonly body: ApiError | undefined) {
    super(body?.message ?? `The service answered ${status}`);
  }

  /** The message of the §7 body's sub-error for `field`, if any. */
  fieldError(field: string): string | undefined {
    return this.body?.subErrors?.find((e) => e.field === field)?.message;
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
