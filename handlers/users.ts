/**
 * Users (docs/contract.md §5.2): people and service accounts of a tenant, `/users`, `/users/{id}/roles` and `/user`.
 * Group members, managers and resource managers reference this descriptor too.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { hashSecret } from '../core/passwords';
import { TENANT_ADMIN } from '../auth/permissions';
import { authorizeUserChange, canAssignRoles, offersLockout, userPolicy } from '../auth/policies/user';
import type { Row } from '../models/define';
import {
  DEFAULT_ROLES, federatedHolders, fullName, holdsRole, otherHoldersOf, roleNames, serviceAccountEmail, serviceAccountNames,
} from '../models/user';
import type { RequestContext } from '../core/context';
import { resourceHandlers } from './_lib/crud';
import { emailInput, emailOutput } from './_lib/email';
import { checkIfMatch } from './_lib/etag';
import { BadRequestError, ConflictError, ForbiddenError, UnprocessableError, type SubError } from '../core/errors';
import { link } from '../core/hal';
import { withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { findVisible } from './_lib/store';

const SETTINGS_MAX_BYTES = 8 * 1024;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** The embedded issuer's public client: no service account may take its name. */
const RESERVED_CLIENT_IDS = new Set(['self-service']);

const invalid = (field: string, message: string, rejectedValue?: unknown): SubError =>
  (rejectedValue === undefined ? { field, message } : { field, message, rejectedValue });

function userEmailInput(value: unknown): string | null {
  const email = emailInput('emailAddress')(value);
  if (email !== null && !EMAIL.test(email)) {
    throw new BadRequestError(['emailAddress: must be a well-formed e-mail address'], [invalid('emailAddress', 'must be a well-formed e-mail address', value)]);
  }
  return email;
}

/**
 * With an external IdP the platform stores no credentials: a service account created here is the platform side of
 * a Keycloak client of that id, linked on its first token (auth/external-users.ts).
 */
const externalIdp = (ctx: RequestContext) => ctx.deps.config.externalAuthUrl !== undefined;

/** Values of one create, kept for its 201 reply only: the generated client secret. */
const revealed = new WeakMap<RequestContext, Record<string, unknown>>();

/**
 * Field rules the schema cannot express: names and e-mail required for people (a service account's are derived
 * from its client id), which credentials fit which kind of user, the settings size. Mutates `values` with the
 * derived service-account fields.
 */
function shape(ctx: RequestContext, values: Record<string, any>, row: Row | undefined): void {
  const problems: SubError[] = [];
  const serviceAccount = row ? !!row.serviceAccount : typeof values.clientId === 'string';
  // Absent on create (key missing) or reset by PUT (null); PATCH leaves absent keys out entirely.
  const missing = (key: string) => (row ? key in values && values[key] == null : values[key] == null);
  if (serviceAccount) {
    const clientId = (row?.clientId ?? values.clientId) as string;
    if (!row && RESERVED_CLIENT_IDS.has(clientId)) problems.push(invalid('clientId', `'${clientId}' is reserved`, clientId));
    if (!row) values.serviceAccount = true;
    const derived = row ? row.email : serviceAccountEmail(clientId, ctx.principal.tenant.shortName);
    if (row && values.email != null && values.email !== derived) problems.push(invalid('emailAddress', 'a service account keeps its derived address', values.email));
    values.email = derived;
    const names = serviceAccountNames(clientId);
    if (missing('firstName')) values.firstName = names.firstName;
    if (missing('lastName')) values.lastName = names.lastName;
    if (values.passwordHash != null) problems.push(invalid('password', 'a service account has no password; it authenticates with clientSecret or a federated identity'));
  } else {
    for (const [key, field] of [['firstName', 'firstName'], ['lastName', 'lastName'], ['email', 'emailAddress']]) {
      if (missing(key)) problems.push(invalid(field, 'is required'));
    }
    for (const [key, field] of [['clientSecretHash', 'clientSecret'], ['federatedIssuer', 'federatedIssuer'], ['federatedSubject', 'federatedSubject']]) {
      if (values[key] != null) problems.push(invalid(field, 'only a service account (created with a clientId) has one'));
    }
  }
  if (externalIdp(ctx)) {
    // Keycloak (AUTH_URL) owns every credential; a stored hash here would never open anything.
    for (const [key, field] of [['passwordHash', 'password'], ['clientSecretHash', 'clientSecret'], ['federatedIssuer', 'federatedIssuer'], ['federatedSubject', 'federatedSubject']]) {
      if (values[key] != null) problems.push(invalid(field, 'is kept by the identity provider (AUTH_URL), not here'));
    }
  }
  if (values.settings != null && Buffer.byteLength(JSON.stringify(values.settings)) > SETTINGS_MAX_BYTES) {
    problems.push(invalid('settings', `size must be at most ${SETTINGS_MAX_BYTES} bytes`));
  }
  if (serviceAccount && !externalIdp(ctx)) problems.push(...credentialProblems(values, row));
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
}

/** A federated identity is an issuer and a subject together; a service account needs it or a secret to log in. */
function credentialProblems(values: Record<string, any>, row: Row | undefined): SubError[] {
  const after = (key: string) => (key in values ? values[key] : row?.get(key)) ?? null;
  const issuer = after('federatedIssuer');
  const subject = after('federatedSubject');
  if ((issuer === null) !== (subject === null)) {
    const absent = issuer === null ? 'federatedIssuer' : 'federatedSubject';
    return [invalid(absent, `is required with ${absent === 'federatedIssuer' ? 'federatedSubject' : 'federatedIssuer'}`)];
  }
  // On create a service account without either gets a generated secret (onCreate).
  if (row && issuer === null && after('clientSecretHash') === null) {
    return [invalid('federatedIssuer', 'a service account without a client secret needs a federated identity')];
  }
  return [];
}

/** State rules: the tenant keeps a TENANT_ADMIN (422); a federated identity belongs to one service account (409). */
async function guard(ctx: RequestContext, values: Record<string, any>, row: Row | undefined, transaction?: Transaction): Promise<void> {
  const tenantUid = ctx.principal.tenant.uid as string;
  if (row && holdsRole(row, TENANT_ADMIN) && values.roles !== undefined && !(values.roles as string[]).includes(TENANT_ADMIN)
    && (await otherHoldersOf(ctx.models.User, tenantUid, TENANT_ADMIN, row.uid, transaction)) === 0) {
    throw new UnprocessableError(`roles: ${row.email} is the last TENANT_ADMIN of the tenant; make another user TENANT_ADMIN first`);
  }
  const issuer = ('federatedIssuer' in values ? values.federatedIssuer : row?.federatedIssuer) ?? null;
  const subject = ('federatedSubject' in values ? values.federatedSubject : row?.federatedSubject) ?? null;
  const rebinding = 'federatedIssuer' in values || 'federatedSubject' in values;
  if (issuer !== null && subject !== null && rebinding
    && (await federatedHolders(ctx.models.User, tenantUid, issuer, subject, row?.uid, transaction)) > 0) {
    throw new ConflictError('federatedSubject: this issuer and subject already identify another service account');
  }
}

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction): Promise<void> {
  shape(ctx, values, row);
  authorizeUserChange(ctx, values, row);
  await guard(ctx, values, row, transaction);
}

/** A service account created with neither secret nor federated identity gets a secret, shown once in the reply. */
async function onCreate(ctx: RequestContext, values: Record<string, any>): Promise<void> {
  if (!values.serviceAccount || externalIdp(ctx) || values.clientSecretHash || (values.federatedIssuer && values.federatedSubject)) return;
  const clientSecret = randomBytes(32).toString('base64url');
  values.clientSecretHash = await hashSecret(clientSecret);
  revealed.set(ctx, { clientSecret });
}

async function blockers(ctx: RequestContext, row: Row, transaction: Transaction): Promise<string | null> {
  if (row.uid === ctx.principal.user.uid) return 'You cannot delete your own user';
  if (holdsRole(row, TENANT_ADMIN) && (await otherHoldersOf(ctx.models.User, row.tenantUid, TENANT_ADMIN, row.uid, transaction)) === 0) {
    return `${row.email} is the last TENANT_ADMIN of the tenant; make another user TENANT_ADMIN first`;
  }
  return null;
}

const hashed = (v: unknown) => hashSecret(String(v));

export const userResource: Resource<'users', 'findByEmailAddress'> = {
  collection: 'users',
  itemRel: 'user',
  model: (m) => m.User,
  auditType: 'User',
  auditName: (row) => row.email,
  fields: [
    { name: 'firstName' },
    { name: 'middleName' },
    { name: 'lastName' },
    // Before emailAddress: a taken client id is reported as such, not as the address derived from it.
    { name: 'clientId', unique: true, immutable: true },
    { name: 'serviceAccount', readOnly: true, output: (v) => !!v },
    { name: 'emailAddress', attribute: 'email', unique: true, input: userEmailInput, output: emailOutput },
    { name: 'phoneNumber' },
    {
      name: 'roles', kind: 'list', keepOnReplace: true, default: () => [...DEFAULT_ROLES], input: roleNames,
      output: (v) => ((v as string[] | null) ?? []).map((name) => ({ name })),
    },
    { name: 'settings', kind: 'map', default: () => ({}), output: (v) => v ?? {} },
    { name: 'password', attribute: 'passwordHash', writeOnly: true, keepOnReplace: true, prepare: hashed },
    { name: 'clientSecret', attribute: 'clientSecretHash', writeOnly: true, keepOnReplace: true, prepare: hashed },
    { name: 'federatedIssuer', writeOnly: true, keepOnReplace: true },
    { name: 'federatedSubject', writeOnly: true, keepOnReplace: true },
  ],
  computed: (row) => ({ fullName: fullName(row as unknown as Parameters<typeof fullName>[0]) }),
  associations: [],
  searches: [
    { name: 'findByEmailAddress', params: [{ name: 'email', required: true }], where: (a) => ({ emailKey: String(a.email).trim().toLowerCase() }) },
  ],
  policy: userPolicy,
  check,
  onCreate,
  reveal: (ctx) => revealed.get(ctx),
  blockers,
  links: (row, ctx, self) => ({
    ...(canAssignRoles(ctx, row) ? { assign_roles: link(`${self}/roles`) } : {}),
    ...(offersLockout(ctx, row) ? { lockout: link(`${self}/lockout`) } : {}),
    tenant: link(`${ctx.base}/tenants/${row.tenantUid}`),
  }),
};

const h = resourceHandlers(userResource);

/** `GET /user`: the caller (people and service accounts alike). */
export const getCurrentUser = h.current((ctx) => ctx.principal.user.uid);

/** Target 404 → 403 (tenant admins only) → 412, before the body is validated. */
async function rolesPrecheck(ctx: RequestContext): Promise<Row> {
  const row = await findVisible(userResource, ctx, ctx.params.id);
  if (!canAssignRoles(ctx, row)) throw new ForbiddenError('Only a tenant admin may assign roles');
  checkIfMatch(ctx, row);
  return row;
}

/** `PUT|PATCH /users/{id}/roles`: the body replaces the role set, through the same audited write as a PATCH. */
const assignRoles: Handler = withPrecheck(async (ctx) => {
  await rolesPrecheck(ctx);
  return h.patch({ ...ctx, body: { roles: ctx.body } });
}, rolesPrecheck);
export const replaceUserRoles = assignRoles;
export const patchUserRoles = assignRoles;
