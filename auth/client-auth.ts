import { invalidClient, invalidRequest } from './oauth-error';

/** The client the caller claims to be, from the form or HTTP Basic (RFC 6749 §2.3.1). Not yet authenticated. */
export interface ClientCredentials {
  clientId: string;
  /** Undefined when no secret was sent; "" for `Basic base64("self-service:")`. */
  clientSecret?: string;
  method: 'basic' | 'post';
}

/** The public client of the embedded issuer: username/password logins, no secret. */
export const SELF_SERVICE_CLIENT = 'self-service';

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
