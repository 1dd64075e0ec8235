import jwt, { type Jwt, type JwtPayload } from 'jsonwebtoken';
import type { Models } from '../../models';
import type { Row } from '../../models/define';
import type { TrustedIssuer } from '../../core/config';
import { invalidGrant } from '../oauth-error';
import type { TrustedIssuerKeys } from '../trusted-issuers';

/** Same clock leeway as for access tokens on the API (docs/contract.md §1.3): the external issuer's clock is not ours. */
const CLOCK_TOLERANCE_SECONDS = 30;

export interface FederatedDeps {
  models: Pick<Models, 'User'>;
  trustedIssuers: TrustedIssuerKeys;
}

/**
 * The service account a client assertion (RFC 7523 §2.2) speaks for: signed RS256 by a `TRUSTED_ISSUERS` issuer,
 * unexpired, for the configured audience, and its (`iss`, `sub`) bound to a service account of THIS realm.
 * Every refusal is 400 invalid_grant (docs/contract.md §1.2); a description tells the caller what to fix without
 * saying anything about other realms. An unreachable issuer key set is 502 temporarily_unavailable instead.
 */
export async function federatedServiceAccount(
  deps: FederatedDeps, tenant: Row, assertion: string, clientId: string | undefined,
): Promise<Row> {
  const { header, payload } = decode(assertion);
  if (header.alg !== 'RS256') throw invalidGrant('Client assertion must be signed with RS256');
  const trusted = deps.trustedIssuers.find(payload.iss);
  if (!trusted) throw invalidGrant('Client assertion issuer is not trusted');
  const key = await deps.trustedIssuers.publicKey(trusted, typeof header.kid === 'string' ? header.kid : undefined);
  const claims = verify(assertion, key, trusted);

  const bound = await deps.models.User.findAll({
    where: { tenantUid: tenant.uid, serviceAccount: true, federatedIssuer: trusted.issuer, federatedSubject: claims.sub },
    limit: 2,
  });
  const subject = `subject ${JSON.stringify(claims.sub.slice(0, 200))} of issuer ${trusted.issuer}`;
  if (bound.length === 0) throw invalidGrant(`No service account of this realm is bound to ${subject}`);
  if (bound.length > 1) throw invalidGrant(`More than one service account of this realm is bound to ${subject}`);
  const [account] = bound;
  if (clientId !== undefined && clientId !== account.clientId) {
    throw invalidGrant('client_id does not name the service account the client assertion is bound to');
  }
  return account;
}

function decode(assertion: string): Jwt & { payload: JwtPayload } {
  let decoded: Jwt | null = null;
  try {
    decoded = jwt.decode(assertion, { complete: true });
  } catch {
    // falls through to the refusal below
  }
  if (!decoded || typeof decoded.payload !== 'object' || decoded.payload === null) throw invalidGrant('Malformed client assertion');
  return decoded as Jwt & { payload: JwtPayload };
}

function verify(assertion: string, key: string, trusted: TrustedIssuer): JwtPayload & { sub: string } {
  let claims: JwtPayload | string;
  try {
    claims = jwt.verify(assertion, key, {
      algorithms: ['RS256'],
      issuer: trusted.issuer,
      audience: trusted.audience as [string, ...string[]] | undefined,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw invalidGrant('Client assertion expired');
    if (err instanceof jwt.NotBeforeError) throw invalidGrant('Client assertion not yet valid');
    if (err instanceof jwt.JsonWebTokenError) {
      if (err.message.startsWith('jwt audience invalid')) throw invalidGrant('Client assertion audience is not accepted');
      throw invalidGrant('Client assertion signature is invalid');
    }
    throw err;
  }
  if (typeof claims !== 'object') throw invalidGrant('Malformed client assertion');
  // jsonwebtoken accepts a JWT without exp; an assertion that never expires could be replayed forever.
  if (typeof claims.exp !== 'number') throw invalidGrant('Client assertion has no expiry (exp)');
  if (typeof claims.sub !== 'string' || claims.sub === '') throw invalidGrant('Client assertion has no subject (sub)');
  return claims as JwtPayload & { sub: string };
}
