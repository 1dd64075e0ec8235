/**
 * The typed client of the Platform Management Service: openapi-fetch over the types that `npm run generate` makes
 * from the service's OpenAPI document (./generated/schema.ts), with the caller's bearer token on every request.
 * Every path, parameter, body and reply is typed from the document; nothing here repeats a schema.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './generated/schema.js';
import type { StrictClient } from './strict-calls.js';

export type { components, operations, paths };
export { clientCredentialsToken, passwordToken, type ClientCredentialsOptions, type PasswordTokenOptions } from './token.js';

/** Every schema of the document by name: `Schemas['Stream']`, `Schemas['StreamCreate']`. */
export type Schemas = components['schemas'];
/** The error body of every status ≥ 400 (`error` of a failed call). */
export type ApiError = Schemas['ApiError'];
export type Group = Schemas['Group'];
export type Cluster = Schemas['Cluster'];
export type Instance = Schemas['Instance'];
export type Environment = Schemas['Environment'];
export type Stream = Schemas['Stream'];
export type StreamConfig = Schemas['StreamConfig'];
export type Application = Schemas['Application'];
export type ApplicationAccessGrant = Schemas['ApplicationAccessGrant'];
export type User = Schemas['User'];

/**
 * The media types `data` and `error` are typed from. The service answers application/hal+json unless a request's
 * Accept names another type of the operation, and a few operations answer only application/json, or the health or
 * ALPS type. Left to itself, openapi-fetch types a body as the union of every media type the operation declares, so
 * a list would read as "HAL page or compact links" and an association as "HAL or a uri-list string"; naming the
 * types the service answers by default types `data` as what arrives. A request that asks for another type by its
 * Accept header (`text/uri-list`, `application/yaml`) reads it with `parseAs: 'text'`.
 */
export type PlatformMedia = 'application/hal+json' | 'application/json' | 'application/health+json' | 'application/alps+json';

/** openapi-fetch's client with the call types of ./strict-calls.ts: an unknown field in a body does not compile. */
export type PlatformClient = StrictClient<PlatformMedia>;

export interface PlatformClientOptions {
  /** The API root, e.g. `http://localhost:8080/api`. */
  baseUrl: string;
  /** A bearer token for every request. */
  token?: string;
  /** Answers the bearer token for each request, so a caller can refresh it; instead of `token`. */
  getToken?: () => string | Promise<string>;
  /** The tenant's short name: sent as the `realm` header, which the service refuses (401) unless it is the token's. */
  realm?: string;
  /** Another fetch (a test's, a proxy's). */
  fetch?: (request: Request) => Promise<Response>;
}

/** Adds `Authorization: Bearer …` (when there is a token) and `realm` to every request. */
function credentials({ token, getToken, realm }: PlatformClientOptions): Middleware {
  const current = getToken ?? (() => token);
  return {
    async onRequest({ request }) {
      const bearer = await current();
      if (bearer) request.headers.set('Authorization', `Bearer ${bearer}`);
      if (realm !== undefined) request.headers.set('realm', realm);
      return request;
    },
  };
}

/**
 * A client of the API at `baseUrl`. Without a token it reaches the public operations only (`/info`, `/health`,
 * the OpenAPI document).
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  if (options.token !== undefined && options.getToken !== undefined) throw new TypeError('give token or getToken, not both');
  const client = createClient<paths, PlatformMedia>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use(credentials(options));
  return client as unknown as PlatformClient;
}
