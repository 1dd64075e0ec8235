import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Row } from '../models/define';
import type { Deps } from '../core/context';
import { grants, required, type IssuerDeps } from './grants';
import type { KeyStore } from './keys';
import { OAuthError, invalidRequest } from './oauth-error';
import { issuerOf } from './tokens';
import { stringProblem } from '../core/input-hygiene';
import { tokenGranted } from '../core/observe';
import { createTrustedIssuerKeys, type TrustedIssuerKeys } from './trusted-issuers';
import { createSignInGate } from './sign-in-guard';
import { browserRoutes } from './browser-flow';
import { sessionRoutes } from './session-endpoints';

const DISCOVERY = '/realms/:realm/.well-known/openid-configuration';
const CERTS = '/realms/:realm/protocol/openid-connect/certs';
const TOKEN = '/realms/:realm/protocol/openid-connect/token';

interface RealmLocals { realm: string; tenant: Row }

/**
 * The embedded Keycloak-style issuer (docs/contract.md §1.2). The app mounts it at `/auth`; `deps.authUrl()` must then
 * answer the public URL of that mount point, since every `iss` and endpoint URL is built from it.
 */
export function issuerRouter(options: Deps & { keys: KeyStore; trustedIssuers?: TrustedIssuerKeys }): Router {
  const deps: IssuerDeps = {
    ...options,
    trustedIssuers: options.trustedIssuers ?? createTrustedIssuerKeys(options.config.trustedIssuers),
    signIns: createSignInGate(options.config.signInQueue),
  };
  const router = Router();

  /** Realm = tenant shortName; Keycloak's exact 404 body for any other. */
  async function withRealm(req: Request, res: Response, next: NextFunction): Promise<void> {
    const realm = String(req.params.realm);
    const tenant = stringProblem(realm) ? null : await deps.models.Tenant.findOne({ where: { shortName: realm } });
    if (!tenant) {
      res.status(404).json({ error: 'Realm does not exist' });
      return;
    }
    res.locals.auth = { realm, tenant } satisfies RealmLocals;
    next();
  }

  router.get(DISCOVERY, withRealm, (_req, res) => {
    const { realm } = res.locals.auth as RealmLocals;
    res.json(discoveryDocument(issuerOf(deps.authUrl(), realm)));
  });

  router.get(CERTS, withRealm, async (_req, res) => {
    res.set('Cache-Control', 'no-cache').json(await deps.keys.jwks());
  });

  router.post(TOKEN, noStore, withRealm, express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 50 }), async (req, res) => {
    const { realm, tenant } = res.locals.auth as RealmLocals;
    let grantType: string | undefined;
    try {
      const form = readForm(req.body);
      grantType = required(form, 'grant_type');
      const grant = Object.hasOwn(grants, grantType) ? grants[grantType] : undefined;
      if (!grant) throw new OAuthError(400, 'unsupported_grant_type', `Unsupported grant_type: ${grantType.slice(0, 64)}`);
      const tokens = await grant({ deps, realm, tenant, form, authorization: req.get('authorization') });
      tokenGranted(grantType, 'issued');
      res.status(200).json(tokens);
    } catch (err) {
      tokenGranted(grantType !== undefined && Object.hasOwn(grants, grantType) ? grantType : 'other', err instanceof OAuthError ? err.error : 'error');
      throw err;
    }
  });

  browserRoutes(router, deps, withRealm);
  sessionRoutes(router, deps, withRealm);
  router.use(oauthErrors);
  return router;
}

function discoveryDocument(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
    token_endpoint: `${issuer}/protocol/openid-connect/token`,
    userinfo_endpoint: `${issuer}/protocol/openid-connect/userinfo`,
    end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
    revocation_endpoint: `${issuer}/protocol/openid-connect/revoke`,
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    jwks_uri: `${issuer}/protocol/openid-connect/certs`,
    grant_types_supported: Object.keys(grants),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    prompt_values_supported: ['none', 'login'],
    authorization_response_iss_parameter_supported: true,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    // private_key_jwt: a trusted issuer's assertion authenticates a federated service account (RFC 7523 §2.2).
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256'],
    scopes_supported: ['openid', 'profile', 'email'],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'sid', 'at_hash', 'azp', 'preferred_username', 'email', 'given_name', 'family_name', 'name', 'realm_access'],
  };
}

/** Token responses, errors included, must never be cached (RFC 6749 §5.1). */
function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  next();
}

/** A parameter sent twice is ambiguous, so it is refused rather than guessed (RFC 6749 §3.2). */
function readForm(body: unknown): Record<string, string | undefined> {
  const form: Record<string, string | undefined> = Object.create(null);
  if (body === null || typeof body !== 'object') return form;
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string') throw invalidRequest(`Duplicate parameter: ${name.slice(0, 64)}`);
    // A NUL or unpaired surrogate can name no user or client; refused before it reaches a query.
    if (stringProblem(name) || stringProblem(value)) throw invalidRequest(`Invalid characters in parameter ${name.slice(0, 64)}`);
    form[name] = value;
  }
  return form;
}

/**
 * OAuth failures answer in OAuth's shape; so do malformed form bodies (body-parser errors carry `type`).
 * Anything else — notably database outages — goes on to the app's error handler, which answers 5xx.
 */
function oauthErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (err instanceof OAuthError) {
    if (err.retryAfter !== undefined) res.set('Retry-After', String(err.retryAfter));
    res.status(err.status).json(err.toBody());
    return;
  }
  const parserError = err as { type?: unknown; status?: unknown };
  if (typeof parserError?.type === 'string' && typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    res.status(parserError.status).json({ error: 'invalid_request', error_description: 'Malformed request body' });
    return;
  }
  next(err);
}
