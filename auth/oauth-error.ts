/**
 * An RFC 6749 §5.2 error of the token endpoint. These bodies are OAuth-shaped (`{error, error_description}`),
 * not the API's §2 error body, because OAuth clients (Terraform providers, kcadm-style tools) parse them.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 502 | 503,
    readonly error:
      | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type'
      | 'invalid_scope' | 'temporarily_unavailable',
    readonly description?: string,
    /** Seconds to send as `Retry-After` (503). */
    readonly retryAfter?: number,
  ) {
    super(description ?? error);
  }

  toBody(): { error: string; error_description?: string } {
    return this.description === undefined ? { error: this.error } : { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidClient = (description = 'Invalid client or Invalid client credentials') => new OAuthError(401, 'invalid_client', description);
/** Keycloak's answer to a wrong username or password, word for word (docs/contract.md §1.2). */
export const invalidUserCredentials = () => new OAuthError(401, 'invalid_grant', 'Invalid user credentials');
/** A refresh token or client assertion that cannot be honoured (docs/contract.md §1.2: 400 invalid_grant). */
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);
/** Keycloak's answer when a client may not use a grant (e.g. the public client asking for client_credentials). */
export const unauthorizedClient = (description: string) => new OAuthError(401, 'unauthorized_client', description);
/**
 * Something we depend on upstream (a trusted issuer's key set) is down: the client's credentials may well be fine,
 * so this is neither invalid_grant nor invalid_client. 502 like the API's "provider unreachable" (docs/contract.md §2).
 */
export const upstreamUnavailable = (description: string) => new OAuthError(502, 'temporarily_unavailable', description);
/**
 * The process holds as many sign-ins as it may (`SIGN_IN_QUEUE`): this one is refused at once rather than queued
 * behind them. Nothing is wrong with the credentials, so the client retries after `Retry-After` seconds.
 */
export const signInsBusy = (retryAfter: number) =>
  new OAuthError(503, 'temporarily_unavailable', 'Too many sign-ins at once; retry later', retryAfter);
