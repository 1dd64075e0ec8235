import type { Row } from '../../models/define';
import { authenticateClient, readClientAssertion, readClientCredentials, SELF_SERVICE_CLIENT } from '../client-auth';
import { unauthorizedClient } from '../oauth-error';
import { mintTokens, type TokenResponse } from '../tokens';
import { federatedServiceAccount } from './federated';
import { requireClient, type GrantRequest } from './request';

/**
 * Client Credentials (RFC 6749 §4.4) for service accounts: authenticated by `client_id` + `client_secret`
 * (form or Basic), or — federated — by a client assertion of a trusted issuer (RFC 7523 §2.2) and no secret.
 * Either way the reply is the same kind of token: an access token only, no refresh token (RFC 6749 §4.4.3).
 */
export async function clientCredentialsGrant({ deps, realm, tenant, form, authorization }: GrantRequest): Promise<TokenResponse> {
  const assertion = readClientAssertion(authorization, form);
  const account = assertion !== undefined
    ? await federatedServiceAccount(deps, tenant, assertion, form.client_id || undefined)
    : await secretServiceAccount({ deps, realm, tenant, form, authorization });
  // `scope` is accepted and ignored, as for the password grant.
  return mintTokens({
    keys: deps.keys,
    authUrl: deps.authUrl(),
    realm,
    user: account,
    clientId: account.clientId as string,
    withRefreshToken: false,
  });
}

async function secretServiceAccount({ deps, tenant, form, authorization }: GrantRequest): Promise<Row> {
  const client = requireClient(readClientCredentials(authorization, form));
  // Keycloak's answer, word for word: the public client has no service account.
  if (client.clientId === SELF_SERVICE_CLIENT) throw unauthorizedClient('Public client not allowed to retrieve service account');
  const authenticated = await authenticateClient(deps, tenant, client);
  if (authenticated.kind !== 'service-account') throw unauthorizedClient('Public client not allowed to retrieve service account');
  return authenticated.user;
}
