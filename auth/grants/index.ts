import { authorizationCodeGrant } from './authorization-code';
import { clientCredentialsGrant } from './client-credentials';
import { passwordGrant } from './password';
import { refreshTokenGrant } from './refresh';
import type { GrantHandler } from './request';

export { required, requireClient, type GrantHandler, type GrantRequest, type IssuerDeps } from './request';
export { authorizationCodeGrant, clientCredentialsGrant, passwordGrant, refreshTokenGrant };

/** `grant_type` → handler; discovery's `grant_types_supported` is this list. */
export const grants: Record<string, GrantHandler> = {
  password: passwordGrant,
  client_credentials: clientCredentialsGrant,
  refresh_token: refreshTokenGrant,
  authorization_code: authorizationCodeGrant,
};
