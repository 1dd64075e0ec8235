/**
 * Browser sign-in at the embedded issuer (issue 42; auth/browser-flow.ts): what a sign-in shares between hosts
 * behind one load balancer, so no host needs sticky sessions. Only hashes of the secrets a browser or client holds
 * (the session cookie, the form's binding token, the code) are stored. A session goes with its user; its codes and
 * refresh-token families go with it.
 *
 * - `issuer_requests`: an authorization request waiting for its sign-in form (single use, ten minutes).
 * - `issuer_sessions`: the single sign-on session (`sid`), with Keycloak's idle and maximum lifetimes.
 * - `issuer_codes`: authorization codes (single use, sixty seconds), bound to client, redirect URI and PKCE challenge.
 * - `issuer_grants`: a refresh-token family of the code flow; `current_jti` is the one refresh token that may be used.
 * - `issuer_revoked_tokens`: refresh tokens of the password grant revoked by RFC 7009, until they expire.
 */
import type { QueryInterface } from 'sequelize';
import { createTable, ref, str, text, timestamp, uid } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'issuer_sessions', {
    uid: { ...uid(), primaryKey: true },
    secret_hash: str(64, false),
    tenant_uid: ref('tenants', false, 'CASCADE'),
    user_uid: ref('users', false, 'CASCADE'),
    auth_time: timestamp(),
    idle_expires_at: timestamp(),
    max_expires_at: timestamp(),
  });
  await qi.addIndex('issuer_sessions', ['secret_hash'], { name: 'issuer_sessions_secret_hash_uq', unique: true });
  await qi.addIndex('issuer_sessions', ['user_uid'], { name: 'issuer_sessions_user_ix' });
  await qi.addIndex('issuer_sessions', ['idle_expires_at'], { name: 'issuer_sessions_idle_ix' });

  await createTable(qi, 'issuer_requests', {
    uid: { ...uid(), primaryKey: true },
    tenant_uid: ref('tenants', false, 'CASCADE'),
    client_id: str(64, false),
    redirect_uri: text(false),
    scope: str(255, false),
    state: text(),
    nonce: text(),
    code_challenge: str(64, false),
    login_hint: str(255),
    binding_hash: str(64, false),
    expires_at: timestamp(),
    consumed_at: timestamp(true),
  });
  await qi.addIndex('issuer_requests', ['expires_at'], { name: 'issuer_requests_expiry_ix' });

  await createTable(qi, 'issuer_codes', {
    code_hash: { ...str(64, false), primaryKey: true },
    session_uid: ref('issuer_sessions', false, 'CASCADE'),
    tenant_uid: ref('tenants', false, 'CASCADE'),
    user_uid: ref('users', false, 'CASCADE'),
    client_id: str(64, false),
    redirect_uri: text(false),
    code_challenge: str(64, false),
    nonce: text(),
    scope: str(255, false),
    expires_at: timestamp(),
    consumed_at: timestamp(true),
    grant_uid: { ...uid(), allowNull: true },
  });
  await qi.addIndex('issuer_codes', ['expires_at'], { name: 'issuer_codes_expiry_ix' });

  await createTable(qi, 'issuer_grants', {
    uid: { ...uid(), primaryKey: true },
    session_uid: ref('issuer_sessions', false, 'CASCADE'),
    tenant_uid: ref('tenants', false, 'CASCADE'),
    user_uid: ref('users', false, 'CASCADE'),
    client_id: str(64, false),
    current_jti: str(64, false),
    revoked_at: timestamp(true),
    created_at: timestamp(),
  });
  await qi.addIndex('issuer_grants', ['session_uid'], { name: 'issuer_grants_session_ix' });

  await createTable(qi, 'issuer_revoked_tokens', {
    jti: { ...str(64, false), primaryKey: true },
    expires_at: timestamp(),
  });
  await qi.addIndex('issuer_revoked_tokens', ['expires_at'], { name: 'issuer_revoked_tokens_expiry_ix' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  for (const table of ['issuer_revoked_tokens', 'issuer_grants', 'issuer_codes', 'issuer_requests', 'issuer_sessions']) await qi.dropTable(table);
}
