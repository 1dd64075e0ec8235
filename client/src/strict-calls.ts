/**
 * The call signatures of the platform client: openapi-fetch's own, minus the looseness that lets a misspelt field
 * through. openapi-fetch infers each call's options as a type parameter and adds `[key: string]: unknown` to them
 * (for framework-specific fetch options), so an object literal never meets the operation's own body type as a fresh
 * literal: once the required fields are there, an unknown field compiles (openapi-ts/openapi-typescript#1769,
 * #2329). Here the options are the operation's own type, so TypeScript's excess-property check reaches the body,
 * the path and the query; only `parseAs` is inferred, for the type of `data`. The calls are openapi-fetch's at run
 * time: this narrows their types and adds nothing.
 */
import type { Client, FetchResponse, MaybeOptionalInit, ParseAs } from 'openapi-fetch';
import type { paths } from './generated/schema.js';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The paths that have an operation for `method`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

/** What a call of `method` on `path` takes besides the path: the operation's parameters and body, and fetch options. */
export type CallInit<P extends PathsWith<M>, M extends Method> = MaybeOptionalInit<paths[P], M>;

/** The operation of `method` on `path`. */
type Operation<P extends PathsWith<M>, M extends Method> = paths[P][M] extends infer O extends Record<string | number, any> ? O : never;

/** The options argument, required when the operation has a required parameter or body. */
type InitArgument<P extends PathsWith<M>, M extends Method, A extends ParseAs> = undefined extends CallInit<P, M>
  ? [init?: NonNullable<CallInit<P, M>> & { parseAs?: A }]
  : [init: CallInit<P, M> & { parseAs?: A }];

/** One HTTP method of the client: `client.POST('/groups', { body: … })`. */
export type StrictCall<M extends Method, Media extends `${string}/${string}`> = <P extends PathsWith<M>, A extends ParseAs = 'json'>(
  path: P,
  ...init: InitArgument<P, M, A>
) => Promise<FetchResponse<Operation<P, M>, { parseAs: A }, Media>>;

export type StrictClient<Media extends `${string}/${string}`> = Pick<Client<paths, Media>, 'use' | 'eject'> & {
  GET: StrictCall<'get', Media>;
  PUT: StrictCall<'put', Media>;
  POST: StrictCall<'post', Media>;
  PATCH: StrictCall<'patch', Media>;
  DELETE: StrictCall<'delete', Media>;
};
