import { readClientCredentials, SELF_SERVICE_CLIENT } from '../client-auth';
import { invalidClient, invalidUserCredentials } from '../oauth-error';
import { signInPerson } from '../sign-in-guard';
import { mintTokens, type TokenResponse } from '../tokens';
import { required, requireClient, type GrantRequest } from './request';

/** Resource Owner Password Credentials (RFC 6749 §4.3), for the public `self-service` client only. */
export async function passwordGrant({ deps, realm, tenant, form, authorization }: GrantRequest): Promise<TokenResponse> {
  const client = requireClient(readClientCredentials(authorization, form));
  if (client.clientId !== SELF_SERVICE_CLIENT) throw invalidClient();
  const username = required(form, 'username');
  const password = required(form, 'password');
  // `scope` is accepted and ignored: every token carries the standard scopes and this issuer defines no others.

  const user = await deps.signIns.run(async () => {
    // A locked account answers as a wrong password does (Keycloak's "Invalid user credentials"), after the same work.
    const person = await signInPerson(deps, tenant, username, password);
    if (!person) throw invalidUserCredentials();
    return person;
  });

  return mintTokens({
    keys: deps.keys,
    authUrl: deps.authUrl(),
    realm,
    user,
    clientId: client.clientId,
    withRefreshToken: true,
  });
}
