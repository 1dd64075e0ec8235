/**
 * The HTTP adapter: a node:http listener that serves /api itself, with openapi-backend's router and validators, and
 * hands everything else (the embedded issuer at /auth, unknown paths) to Express. For every /api request it
 * authenticates, routes (404/405),
 * reads the body (415/413/400), validates from the spec, calls the handler named by the operationId and writes
 * its Reply. Everything ≥ 400 leaves through one error writer (server/error-body).
 */
import express, { type Request, type Response, type NextFunction } from 'express';
import type { IncomingMessage, ServerResponse, RequestListener } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ErrorObject } from 'ajv';
import parseUrl from 'parseurl';
import { OpenAPIBackend, type Context as ObContext, type Request as ObRequest } from 'openapi-backend';
import { randomUUID } from 'node:crypto';
import { handlers } from '../handlers';
import type { Deps, Prefetched, Principal, RequestContext } from '../core/context';
import type { ItemWanted } from '../models/caller';
import { uidOf } from '../handlers/_lib/references';
import { ForbiddenError, HttpError, MethodNotAllowedError, NotFoundError } from '../core/errors';
import type { CheckedHandler, Reply } from '../handlers/_lib/reply';
import { discardBody, readBody } from './body';
import { checkBodyFields } from './body-fields';
import { normaliseEnums } from './enum-input';
import { errorReply, sendError } from './error-body';
import { errorProblems, responseProblems } from './response-validator';
import { deref, spec, type Schema } from '../core/spec';
import { cacheRouting } from './router-cache';
import { toValidationError } from './validation-errors';
import { logger } from '../core/logger';
import { checkPathSegments, parseQuery, type Query } from './request-target';
import { plainCheckOf, type DeclaredParameter, type PlainCheck } from './plain-parameters';
import { withLenientPathValues } from './path-values';
import { normaliseQueryEnums, queryEnumsOf, type QueryEnum } from './query-enums';
import { nameRequest, observeRequest, requestFailed, type Serve } from './telemetry/requests';
import { serveMetrics } from './telemetry/metrics-endpoint';
import { portal } from './portal';

export interface AppOptions {
  deps: Deps;
  /** With `item`, the principal may come with that row, read alongside (`prefetched`, for the request context). */
  authenticate: (headers: Request['headers'], item?: ItemWanted) => Promise<Principal & { prefetched?: Prefetched }>;
  /** The embedded IdP's router, mounted at /auth; absent in external IdP mode. */
  issuer?: express.Router;
}

type Operation = { operationId: string; security?: unknown[]; requestBody?: { content: Record<string, unknown> }; parameters?: unknown[]; method: string; path: string };

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** What each request needs of its operation's declaration, dereferenced once per operation instead of per request. */
interface OperationShape {
  queryNames: Set<string | undefined>;
  bodySchema: (mediaType: string | undefined) => Schema | undefined;
  /** Which segment of the path holds `{id}` (-1: none). */
  idSegment: number;
  /** Present when the parameters of a request of this operation may skip the validator (server/plain-parameters). */
  plain?: PlainCheck;
  /** The operation takes a body, and a JSON one: what the validator's compiled body check reads. */
  body: 'none' | 'json' | 'other';
  /** Query parameters with listed values, spelled canonically before validation (server/query-enums). */
  queryEnums?: QueryEnum[];
  /** Each path parameter and the segment that holds it, for requests that skip the validator. */
  pathParams: { name: string; segment: number }[];
}
const shapes = new WeakMap<Operation, OperationShape>();

function shapeOf(operation: Operation): OperationShape {
  let shape = shapes.get(operation);
  if (shape) return shape;
  const params = (operation.parameters ?? []).map((p) => deref(p) as DeclaredParameter | undefined);
  const content = operation.requestBody?.content ?? {};
  const bodies = new Map(Object.entries(content).map(([type, media]) => [type, deref(media)?.schema]));
  shape = {
    queryNames: new Set(params.filter((p) => p?.in === 'query').map((p) => p?.name)),
    bodySchema: (mediaType) => (bodies.has(mediaType ?? 'application/json') ? bodies.get(mediaType ?? 'application/json') : bodies.get('application/json')),
    idSegment: operation.path.split('/').indexOf('{id}'),
    pathParams: operation.path.split('/').flatMap((part, segment) => (/^\{.+\}$/.test(part) ? [{ name: part.slice(1, -1), segment }] : [])),
    plain: plainCheckOf(params),
    body: operation.requestBody === undefined ? 'none' : bodies.get('application/json') !== undefined ? 'json' : 'other',
    queryEnums: queryEnumsOf(params),
  };
  shapes.set(operation, shape);
  return shape;
}
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NO_QUERY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** The validator reads a body that arrived in another JSON-compatible type (a form, YAML) as JSON. */
function headersForValidation(req: IncomingMessage, mediaType: string | undefined, body: unknown): IncomingMessage['headers'] {
  if (!mediaType || mediaType === 'application/json' || mediaType === 'text/uri-list' || typeof body !== 'object') return req.headers;
  return { ...req.headers, 'content-type': 'application/json' };
}

/** The OpenAPI backend that routes and validates /api requests (exported so tests meet the very same validator). */
export function requestValidatorApi(basePath: string): OpenAPIBackend {
  return new OpenAPIBackend({
    definition: withLenientPathValues(structuredClone(spec)) as never,
    apiRoot: basePath,
    // The document is validated in CI (`npm run check`), not at every start; quick mode also compiles nothing up
    // front, so the request validators, the only ones used here, are compiled below (responses are checked by
    // server/response-validator in tests).
    quick: true,
    validate: true,
    coerceTypes: true,
    strict: true,
    // Each operation gets its own Ajv; checking every schema against the meta-schema would compile that meta-schema
    // hundreds of times at start. The document's schemas are checked in CI instead. `verbose` puts the failing
    // schema on each error, so a null reference reads as absent (server/validation-errors.ts).
    ajvOpts: { strict: false, allErrors: true, validateSchema: false, verbose: true },
  });
}

export async function createApp(options: AppOptions): Promise<RequestListener> {
  const { deps } = options;
  const basePath = deps.config.basePath;
  const api = requestValidatorApi(basePath);
  const operationHandlers = handlers as Record<string, CheckedHandler>;
  const withRequest = (c: ObContext, ctx: RequestContext): RequestContext => ({
    ...ctx,
    params: c.request.params as Record<string, string>,
    query: (c.request.query ?? {}) as Record<string, unknown>,
  });
  const validationFail = async (c: ObContext, ctx: RequestContext) => {
    // Target 404, 403 and 412 come before validation (docs/contract.md §2): run the handler's own checks first.
    const handler = operationHandlers[c.operation?.operationId ?? ''];
    if (handler?.precheck) await handler.precheck(withRequest(c, ctx));
    throw toValidationError(c.validation.errors ?? [], { requestBody: ctx.body, query: ctx.rawQuery });
  };

  /**
   * What openapi-backend's handleRequest does after routing and security, both already done here: validate (with
   * coercion), then call the operation's handler with the coerced request. handleRequest would also match the
   * operation again and parse the request four times; here it is parsed twice (validation, coerced values), or
   * once when the validator could not refuse it (server/plain-parameters).
   */
  async function dispatch(obRequest: ObRequest, operation: Operation, ctx: RequestContext, refusals?: ErrorObject[]): Promise<Reply> {
    const op = operation as unknown as Parameters<typeof api.validator.validateRequest>[1];
    const handler = operationHandlers[operation.operationId];
    const validation = api.validator.validateRequest(obRequest, op);
    if (refusals) validation.errors = [...(validation.errors ?? []), ...refusals];
    const request = api.router.parseRequest(validation.errors || !validation.coerced ? obRequest : validation.coerced, op as never);
    const c = { api, request, operation, validation } as unknown as ObContext;
    if (validation.errors) return validationFail(c, ctx);
    if (!handler) throw new Error(`no handler for ${operation.operationId}`);
    return handler(withRequest(c, ctx));
  }
  await api.init();
  api.validator.preCompileRequestValidators();
  cacheRouting(api);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQuery);
  if (options.issuer) app.use('/auth', options.issuer);

  /**
   * /api requests go straight to serveApi, not through Express: its router matches each mounted layer's pattern,
   * and it swaps the request's and response's prototypes for its own, which slows every later property access
   * on them. The match is Express's for a mount path: the base path, case-blind, then the end or a slash.
   */
  const apiRoot = basePath.toLowerCase();
  // /metrics sits outside the base path, on this port unless METRICS_PORT gives it one of its own.
  const metricsHere = deps.config.metricsPort === undefined;
  const route: Serve = (req, res, requestId) => {
    const pathname = parseUrl(req)?.pathname ?? '';
    const after = pathname.charAt(apiRoot.length);
    if (pathname.slice(0, apiRoot.length).toLowerCase() !== apiRoot || (after !== '' && after !== '/')) {
      if (metricsHere && pathname === '/metrics') {
        nameRequest(res, 'metrics');
        serveMetrics(req, res);
        return;
      }
      app(req as Request, res as Response);
      return;
    }
    serveApi(req, res, pathname.slice(apiRoot.length) || '/', requestId).catch((err: unknown) => fail(req, res, err));
  };
  const listener: RequestListener = (req, res) => observeRequest(req, res, requestIdOf(req, res), route);

  /** With VALIDATE_RESPONSES, the operation each /api response answers, so its error can be checked too. */
  const answering = new WeakMap<ServerResponse, string>();

  function fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    let error = errorReply(err);
    const operationId = deps.config.validateResponses ? answering.get(res) : undefined;
    if (operationId !== undefined) error = declaredError(operationId, error);
    if (error.status >= 500) requestFailed(res, err);
    sendError(req, res, error);
  }

  /** A 4xx the operation does not declare, or an error body that is not ApiError, is the document's fault: a 500. */
  function declaredError(operationId: string, error: HttpError): HttpError {
    const problems = errorProblems(operationId, error.status, error.toBody());
    if (problems.length === 0) return error;
    logger.error({ operationId, status: error.status, problems }, 'response does not match the OpenAPI document');
    return new HttpError(500, 'Response does not match the OpenAPI document', problems);
  }

  /** `relative`: the path below the base path (`/clusters/…`, at least `/`). */
  async function serveApi(req: IncomingMessage, res: ServerResponse, relative: string, requestId: string): Promise<void> {
    const method = req.method === 'HEAD' ? 'GET' : req.method ?? 'GET';
    const path = basePath + relative;
    const obRequest: ObRequest = { method, path, headers: req.headers as never };
    const operation = api.router.matchOperation(obRequest) as Operation | undefined;
    if (operation) nameRequest(res, operation.operationId);
    if (operation && deps.config.validateResponses) answering.set(res, operation.operationId);
    const isPublic = Array.isArray(operation?.security) && operation.security.length === 0;
    if (!operation && isPublicPath(path)) throw routeError(method, path);
    // The path's segments, split once: the item read with the caller and the plain path's values come from them.
    const segments = relative.split('/');
    const authenticated = isPublic ? undefined : await options.authenticate(req.headers, itemWanted(operation, segments));
    let principal: Principal | undefined;
    let prefetched: Prefetched | undefined;
    if (authenticated) ({ prefetched, ...principal } = authenticated);
    if (!operation) throw routeError(method, path);
    if (MUTATING.has(method)) checkXsrf(req);
    checkPathSegments(relative, operation.path);

    const declared = Object.keys(operation.requestBody?.content ?? {});
    let body: unknown;
    let mediaType: string | undefined;
    let refusals: ErrorObject[] | undefined;
    if (declared.length > 0) {
      ({ body, mediaType } = await readBody(req, declared, deps.config.maxBodyBytes));
      const schema = shapeOf(operation).bodySchema(mediaType);
      if (body !== undefined && mediaType !== 'text/uri-list') body = normaliseEnums(schema, body);
      refusals = checkBodyFields(req, res, schema, body);
    } else {
      await discardBody(req, deps.config.maxBodyBytes);
    }
    const query = parseQuery(parseUrl(req)?.query as string | null | undefined);

    const ctx: RequestContext = {
      deps, models: deps.models, base: baseUrl(req, deps.config.publicUrl, basePath),
      principal: principal as Principal, requestId,
      method, path: relative, headers: req.headers, params: {}, query: {},
      rawQuery: query, body, contentType: mediaType, prefetched,
    };
    const declaredValues = declaredQuery(operation, query);
    const reply = await (servePlain(operation, ctx, declaredValues, segments, refusals) ?? dispatch({
      ...obRequest, query: declaredValues as never, headers: headersForValidation(req, mediaType, body) as never, body,
    }, operation, ctx, refusals));
    if (deps.config.validateResponses) {
      const problems = responseProblems(operation.operationId, reply.status, reply.body === undefined ? undefined : reply.contentType ?? 'application/hal+json', reply.body);
      if (problems.length > 0) {
        logger.error({ operationId: operation.operationId, problems }, 'response does not match the OpenAPI document');
        throw new HttpError(500, 'Response does not match the OpenAPI document', problems);
      }
    }
    writeReply(req, res, reply);
  }

  /**
   * A request the validator could not refuse (server/plain-parameters): its handler's answer, with the path values
   * read off the path as the library's parse would read them (each segment percent-decoded). Otherwise undefined.
   */
  function servePlain(operation: Operation, ctx: RequestContext, declaredValues: Record<string, unknown>, segments: string[],
    refusals: ErrorObject[] | undefined): Reply | Promise<Reply> | undefined {
    const shape = shapeOf(operation);
    const handler = operationHandlers[operation.operationId];
    if (!shape.plain || !handler) return undefined;
    for (const _name in declaredValues) return undefined;
    // A body the validator reads as it arrived: parsed JSON (a missing one takes the whole validator's path).
    if (shape.body === 'other' || (shape.body === 'json' && typeof ctx.body !== 'object')) return undefined;
    const params: Record<string, string> = {};
    for (const { name, segment } of shape.pathParams) params[name] = decodeURIComponent(segments[segment]);
    if (!shape.plain(params)) return undefined;
    ctx.params = params;
    if (shape.body === 'none') return handler(ctx);
    return serveCheckedBody(operation, handler, ctx, refusals);
  }

  /**
   * A JSON body checked by the validator's own compiled body check for this operation (the first of its request
   * validators; the second, the parameters', could not refuse): the same Ajv, the same schema, the same errors.
   */
  async function serveCheckedBody(operation: Operation, handler: CheckedHandler, ctx: RequestContext, refusals: ErrorObject[] | undefined): Promise<Reply> {
    const [checkBody] = api.validator.getRequestValidatorsForOperation(operation.operationId);
    checkBody({ requestBody: ctx.body });
    const errors = [...(checkBody.errors ?? []), ...(refusals ?? [])];
    if (errors.length === 0) return handler(ctx);
    if (handler.precheck) await handler.precheck(ctx);
    throw toValidationError(errors, { requestBody: ctx.body, query: ctx.rawQuery });
  }

  /** The row the handler of one item will read (handlers tagged `itemModel`), so authentication reads it alongside. */
  function itemWanted(operation: Operation | undefined, segments: string[]): ItemWanted | undefined {
    const handler = operation && operationHandlers[operation.operationId];
    if (!handler?.itemModel) return undefined;
    const uid = uidOf(segments[shapeOf(operation!).idSegment]);
    return uid === null ? undefined : { model: handler.itemModel(deps.models), uid, related: handler.itemRelated?.(deps.models) };
  }

  /**
   * Query parameters the operation does not declare are ignored, as Spring Data REST does: links carry templates
   * such as `{?projection}` that clients fill in, and a validator refusing them would break those clients.
   */
  function declaredQuery(operation: Operation, query: Query): Record<string, unknown> {
    const { queryNames, queryEnums } = shapeOf(operation);
    // Most requests carry no query at all: the shared empty object (never written to) saves the copies below.
    let any = false;
    for (const _name in query) { any = true; break; }
    if (!any) return NO_QUERY;
    const declared = Object.fromEntries(Object.entries(query).filter(([name]) => queryNames.has(name)));
    return queryEnums ? normaliseQueryEnums(queryEnums, declared) : declared;
  }

  /** A path whose every method is public (the probes, /info): a wrong method is refused before any token is read. */
  function isPublicPath(path: string): boolean {
    const operations = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE']
      .map((m) => api.router.matchOperation({ method: m, path, headers: {} } as ObRequest) as Operation | undefined)
      .filter((o) => o !== undefined);
    return operations.length > 0 && operations.every((o) => Array.isArray(o.security) && o.security.length === 0);
  }

  function routeError(method: string, path: string): HttpError {
    try {
      api.router.matchOperation({ method, path, headers: {} } as ObRequest, true);
    } catch (e) {
      if (String((e as Error).message).startsWith('405')) {
        const allowed = ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE'].filter((m) => m !== 'HEAD' && api.router.matchOperation({ method: m, path, headers: {} } as ObRequest));
        if (allowed.includes('GET')) allowed.push('HEAD');
        return new MethodNotAllowedError(allowed, method);
      }
    }
    return new NotFoundError(`No endpoint ${method} ${path}`);
  }

  app.use(portal({ authUrl: deps.authUrl, publicRoot: deps.publicRoot, basePath }));
  app.use((req, _res, next) => next(new NotFoundError(`No endpoint ${req.method} ${req.path}`)));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => fail(req, res, err));
  return listener;
}

/** The caller's X-Request-Id when well-formed, else a new one; echoed on every response. */
function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID().replace(/-/g, '');
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Mutating browser-style calls carry the XSRF cookie; then the header must repeat it (docs/contract.md §1.3). */
function checkXsrf(req: IncomingMessage): void {
  const cookies = String(req.headers.cookie ?? '');
  const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(cookies);
  if (!match) return;
  const header = req.headers['x-xsrf-token'];
  if (typeof header !== 'string' || decodeURIComponent(match[1]) !== header) {
    throw new ForbiddenError('Invalid CSRF token: X-XSRF-TOKEN must equal the XSRF-TOKEN cookie');
  }
}

export function baseUrl(req: IncomingMessage, publicUrl: string | undefined, basePath: string): string {
  if (publicUrl) return publicUrl + basePath;
  const own = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const proto = String(req.headers['x-forwarded-proto'] ?? own).split(',')[0].trim();
  const host = String(req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost').split(',')[0].trim();
  return `${proto}://${host}${basePath}`;
}

function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  res.statusCode = reply.status;
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.body === undefined || reply.status === 204 || reply.status === 304) {
    res.end();
    return;
  }
  const type = reply.contentType ?? 'application/hal+json';
  res.setHeader('Content-Type', type.includes('charset') || !/json|text|yaml/.test(type) ? type : `${type};charset=UTF-8`);
  const payload = typeof reply.body === 'string' && !/json/.test(type) ? reply.body : JSON.stringify(reply.body);
  if (req.method === 'HEAD') {
    res.setHeader('Content-Length', Buffer.byteLength(payload));
    res.end();
    return;
  }
  res.end(payload);
}

