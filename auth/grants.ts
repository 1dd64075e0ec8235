import type { Deps } from '../handlers/_lib/context';
import type { Row } from '../models/define';
import { readClientCredentials, SELF_SERVICE_CLIENT, type ClientCredentials } from './client-auth';
import type { KeyStore } from './keys';
import { invalidClient, invalidRequest, invalidUserCredentials } from './oauth-error';
import { burnVerification, verifySecret } from './passwords';
import { mintTokens, type TokenResponse } from './tokens';

export type IssuerDeps = Deps & { keys: KeyStore };

/** One token request, after the realm is resolved and the form parsed. */
export interface GrantRequest {
  deps: IssuerDeps;
  realm: string;
  tenant: Row;
  form: Record<string, string | undefined>;
  authorization: string | undefined;
}

export type GrantHandler = (request: GrantRequest) => Promise<TokenResponse>;

/** `grant_type` → handler. Later grants (client_credentials, federated, refresh_token) register here. */
export const grants: Record<string, GrantHandler> = {
  password: passwordGrant,
};

/** Resource Owner Password Credentials (RFC 6749 §4.3), for the public `self-service` client only. */
export async function passwordGrant({ deps, realm, tenant, form, authorization }: GrantRequest): Promise<TokenResponse> {
  const client = requireClient(readClientCredentials(authorization, form));
  if (client.clientId !== SELF_SERVICE_CLIENT) throw invalidClient();
  const username = required(form, 'username');
  const password = required(form, 'password');
  // `scope` is accepted and ignored: every token carries the standard scopes and this issuer defines no others.

  const user = await deps.models.User.findOne({
    where: { tenantUid: tenant.uid, emailKey: username.trim().toLowerCase() },
  });
  // Service accounts authenticate with client credentials, never with a password.
  if (!user || user.serviceAccount || !user.passwordHash) {
    await burnVerification(password);
    throw invalidUserCredentials();
  }
  if (!(await verifySecret(password, user.passwordHash))) throw invalidUserCredentials();

  return mintTokens({
    keys: deps.keys,
    authUrl: deps.authUrl(),
    realm,
    user,
    clientId: client.clientId,
    withRefreshToken: true,
  });
}

export function requireClient(client: ClientCredentials | undefined): ClientCredentials {
  if (!client) throw invalidRequest('Missing parameter: client_id');
  return client;
}

export function required(form: Record<string, string | undefined>, name: string): string {
  const value = form[name];
  if (value === undefined || value === '') throw invalidRequest(`Missing parameter: ${name}`);
  return value;
}
