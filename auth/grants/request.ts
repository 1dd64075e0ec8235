import type { Deps } from '../../core/context';
import type { Row } from '../../models/define';
import type { ClientCredentials } from '../client-auth';
import type { KeyStore } from '../keys';
import type { SignInGate } from '../sign-in-guard';
import { invalidRequest } from '../oauth-error';
import type { TokenResponse } from '../tokens';
import type { TrustedIssuerKeys } from '../trusted-issuers';

/** `signIns`: this process's bound on sign-ins in progress (auth/sign-in-guard.ts). */
export type IssuerDeps = Deps & { keys: KeyStore; trustedIssuers: TrustedIssuerKeys; signIns: SignInGate };

/** One token request, after the realm is resolved and the form parsed. */
export interface GrantRequest {
  deps: IssuerDeps;
  realm: string;
  tenant: Row;
  form: Record<string, string | undefined>;
  authorization: string | undefined;
}

export type GrantHandler = (request: GrantRequest) => Promise<TokenResponse>;

export function requireClient(client: ClientCredentials | undefined): ClientCredentials {
  if (!client) throw invalidRequest('Missing parameter: client_id');
  return client;
}

export function required(form: Record<string, string | undefined>, name: string): string {
  const value = form[name];
  if (value === undefined || value === '') throw invalidRequest(`Missing parameter: ${name}`);
  return value;
}
