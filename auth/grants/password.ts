import { readClientCredentials, SELF_SERVICE_CLIENT } from '../client-auth';
import { invalidClient, invalidUserCredentials } from '../oauth-error';
import { checkSecret } from '../sign-in-guard';
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
    const found = await deps.models.User.findOne({
      where: { tenantUid: tenant.uid, emailKey: username.trim().toLowerCase() },
    });
    // Service accounts authenticate with client credentials, never with a password.
    const person = found && !found.serviceAccount ? found : null;
    // A locked account answers as a wrong password does (Keycloak's "Invalid user credentials"), after the same work.
    if (!(await checkSecret(deps, person, person?.passwordHash, password))) throw invalidUserCredentials();
    return person!;
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
