import type { Models } from '../models';
import type { SignInDeps, SignInGate } from './sign-in-guard';
import type { Row } from '../models/define';
import { invalidClient, invalidRequest } from './oauth-error';
import { checkSecret } from './sign-in-guard';

/** The client the caller claims to be, from the form or HTTP Basic (RFC 6749 §2.3.1). Not yet authenticated. */
export interface ClientCredentials {
  clientId: string;
  /** Undefined when no secret was sent; "" for `Basic base64("self-service:")`. */
  clientSecret?: string;
  method: 'basic' | 'post';
}

/** A client whose identity the token endpoint has checked. */
export type AuthenticatedClient =
  | { kind: 'public'; clientId: string }
  | { kind: 'service-account'; clientId: string; user: Row };

/** The public client of the embedded issuer: username/password logins, no secret. */
export const SELF_SERVICE_CLIENT = 'self-service';

/** RFC 7523 §2.2: a JWT issued by a trusted identity provider authenticates the client. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Reads client_id/client_secret from `Authorization: Basic` or the form; both at once must agree. */
export function readClientCredentials(authorization: string | undefined, form: Record<string, string | undefined>): ClientCredentials | undefined {
  const basic = parseBasic(authorization);
  if (basic) {
    if (form.client_id !== undefined && form.client_id !== basic.clientId) throw invalidClient('Client identified twice, differently');
    if (form.client_secret !== undefined) throw invalidRequest('Client authenticated by more than one method');
    return { ...basic, method: 'basic' };
  }
  if (form.client_id === undefined || form.client_id === '') return undefined;
  return { clientId: form.client_id, clientSecret: form.client_secret, method: 'post' };
}

/**
 * The client assertion of the request, or undefined when none was sent. An assertion excludes a client secret
 * (form or Basic): two authentications of one request could disagree, so neither is picked (RFC 6749 §2.3).
 * A `client_id` beside it is allowed (RFC 7523 §3); the grant checks that it names the asserted account.
 */
export function readClientAssertion(authorization: string | undefined, form: Record<string, string | undefined>): string | undefined {
  const type = emptyToUndefined(form.client_assertion_type);
  const assertion = emptyToUndefined(form.client_assertion);
  if (type === undefined && assertion === undefined) return undefined;
  if (type === undefined) throw invalidRequest('Missing parameter: client_assertion_type');
  if (assertion === undefined) throw invalidRequest('Missing parameter: client_assertion');
  if (type !== JWT_BEARER_ASSERTION) throw invalidRequest(`Unsupported client_assertion_type; expected ${JWT_BEARER_ASSERTION}`);
  if (form.client_secret !== undefined || parseBasic(authorization)) throw invalidRequest('Client authenticated by more than one method');
  return assertion;
}

/**
 * Checks who the client is: `self-service` is public and needs no secret; any other client id must be a service
 * account of this realm with a matching secret, and not locked by brute-force detection. Every failure answers
 * the same 401 invalid_client after the same amount of scrypt work, so neither the answer nor its timing tells
 * which client ids exist or are locked.
 */
export async function authenticateClient(
  deps: SignInDeps & { models: Pick<Models, 'User'>; signIns: SignInGate }, tenant: Row, client: ClientCredentials,
  /** The public clients: `self-service` and the registered browser clients (auth/browser-clients). */
  publicClients: ReadonlySet<string> = new Set([SELF_SERVICE_CLIENT]),
): Promise<AuthenticatedClient> {
  if (publicClients.has(client.clientId)) return { kind: 'public', clientId: client.clientId };
  const secret = client.clientSecret;
  if (secret === undefined || secret === '') throw invalidClient('Client secret not provided in request');
  return deps.signIns.run(async () => {
    const user = await deps.models.User.findOne({ where: { tenantUid: tenant.uid, clientId: client.clientId, serviceAccount: true } });
    // A service account bound only to a federated identity has no secret: it cannot be used with one.
    if (!(await checkSecret(deps, user, user?.clientSecretHash as string | null | undefined, secret))) throw invalidClient();
    return { kind: 'service-account', clientId: client.clientId, user: user! };
  });
}

const emptyToUndefined = (value: string | undefined) => (value === '' ? undefined : value);

function parseBasic(authorization: string | undefined): Omit<ClientCredentials, 'method'> | undefined {
  if (!authorization) return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/=_-]+)[ ]*$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient('Malformed Basic client credentials');
  // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
  const decode = (s: string) => {
    try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { throw invalidClient('Malformed Basic client credentials'); }
  };
  const clientId = decode(decoded.slice(0, colon));
  if (clientId === '') throw invalidClient('Malformed Basic client credentials');
  return { clientId, clientSecret: decode(decoded.slice(colon + 1)) };
}
