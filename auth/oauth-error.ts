/**
 * An RFC 6749 §5.2 error of the token endpoint. These bodies are OAuth-shaped (`{error, error_description}`),
 * not the API's §2 error body, because OAuth clients (Terraform providers, kcadm-style tools) parse them.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description?: string,
  ) {
    super(description ?? error);
  }

  toBody(): { error: string; error_description?: string } {
    return this.description === undefined ? { error: this.error } : { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidClient = (description = 'Invalid client or Invalid client credentials') => new OAuthError(401, 'invalid_client', description);
/** Keycloak's answer to a wrong username or password, word for word (CONTRACT §1.2). */
export const invalidUserCredentials = () => new OAuthError(401, 'invalid_grant', 'Invalid user credentials');
