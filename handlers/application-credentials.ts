import { Op, type Transaction } from 'sequelize';
import { hashSecret } from '../core/passwords';
import { canEditApplication } from '../auth/policies/application';
import { applicationPartPolicy } from '../auth/policies/application-part';
import { generatePassword, scramVerifier } from '../auth/scram';
import { CREDENTIAL_TYPES, credentialUsername, parseCredentialType, providerOf, resolveCredentialTypes, scramMechanismOf, type CredentialType } from '../core/rules/credential-rules';
import type { Row } from '../models/define';
import type { RequestContext } from '../core/context';
import { resourceHandlers } from './_lib/crud';
import { items } from './_lib/render';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors';
import { itemHref } from '../core/hal';
import { mutate } from './_lib/mutation';
import { parsePage } from './_lib/paging';
import { plain, noContent, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { replacesGeneric } from './_lib/wiring';
import { loadRelated, resolveQueryRef, resolveRequiredBodyRef } from './_lib/store';
import { applicationResource } from './applications';
import { partAssociations, partAuditAs } from './parts/application-part';
import { environmentResource } from './environments';

const SUMMARY = { fields: ['uid', 'name', 'shortName'], embedded: [], links: [], id: true };

export const credentialResource: Resource<'application_credentials', never> = {
  collection: 'application_credentials',
  itemRel: 'applicationCredential',
  model: (m) => m.ApplicationCredential,
  auditType: 'Application',
  auditName: (row) => row.uid,
  auditAs: partAuditAs('credential', (row) => ({ username: row.username })),
  auditActions: { DELETED: 'AUTHENTICATION_UNCONFIGURED' },
  fields: [
    { name: 'username', readOnly: true },
    { name: 'target', readOnly: true },
    { name: 'types', kind: 'list', readOnly: true, output: (v) => ((v as string[] | null) ?? []).map((type) => ({ type })) },
    { name: 'description' },
  ],
  computed: (row) => ({ id: row.uid, metadata: { clusters: row.clusters ?? '' } }),
  associations: partAssociations(SUMMARY),
  searches: [],
  policy: applicationPartPolicy({ environmentOwnersSee: false }),
};

const h = resourceHandlers(credentialResource);

/** Names of the clusters behind the environment's instance, comma-joined, in the instance's order. */
async function clusterNames(ctx: RequestContext, environment: Row, transaction: Transaction): Promise<string> {
  const links = await ctx.models.InstanceCluster.findAll({ where: { sourceUid: environment.instanceUid }, order: [['position', 'ASC']], transaction });
  const clusters = links.length === 0 ? [] : await ctx.models.Cluster.findAll({ where: { uid: links.map((l) => l.targetUid) }, transaction });
  const byUid = new Map(clusters.map((c) => [c.uid as string, c.name as string]));
  return links.map((l) => byUid.get(l.targetUid)).filter((n): n is string => !!n).join(',');
}

/**
 * What a broker or registry needs to check the password, never the password: a SCRAM verifier per SCRAM type
 * (RFC 5802, the form Kafka provisions SCRAM users with), an scrypt hash for the others.
 */
async function verifiers(password: string, types: CredentialType[]): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const type of types) {
    const mechanism = scramMechanismOf(type);
    out[type] = mechanism ? await scramVerifier(password, mechanism) : { scrypt: await hashSecret(password) };
  }
  return JSON.stringify(out);
}

/** 404 unless the application is visible, 403 unless the caller edits it (docs/contract.md §5.12). */
async function editableApplication(ctx: RequestContext, field: string, value: unknown, query: boolean): Promise<Row> {
  const application = query ? await resolveQueryRef(applicationResource, ctx, value) : await resolveRequiredBodyRef(applicationResource, ctx, field, value);
  if (!(await canEditApplication(ctx, application))) throw new ForbiddenError(`Only the editors of application ${application.shortName} may manage its credentials`);
  return application;
}

const mayCreate = async (ctx: RequestContext) => {
  if (!(await credentialResource.policy.canCreate(ctx))) throw new ForbiddenError('You may not create application credentials');
};

/**
 * `POST /application_authentications`: a generated username and password, the password shown once in this reply
 * and stored only as verifiers. docs/contract.md §5.12, §11.6: the reply is `[{authData:{…}}]`.
 */
export const createApplicationAuthentication: Handler = withPrecheck(async (ctx) => {
  await mayCreate(ctx);
  const body = ctx.body as { applicationId?: unknown; environmentId?: unknown; target?: string; type?: unknown; types?: unknown; description?: string | null };
  const application = await editableApplication(ctx, 'applicationId', body.applicationId, false);
  const environment = await resolveRequiredBodyRef(environmentResource, ctx, 'environmentId', body.environmentId);
  const resolved = resolveCredentialTypes({ target: body.target, type: body.type, types: body.types });
  if (resolved.kind === 'refused') throw new BadRequestError(resolved.problems.map((p) => `${p.field}: ${p.message}`), resolved.problems);
  const password = generatePassword();
  const secret = await verifiers(password, resolved.types);
  const { row, clusters } = await mutate(ctx, async (transaction) => {
    const clusters = await clusterNames(ctx, environment, transaction);
    const created = await ctx.models.ApplicationCredential.create({
      tenantUid: ctx.principal.tenant.uid, applicationUid: application.uid, environmentUid: environment.uid, target: resolved.target,
      username: credentialUsername(application.shortName, environment.shortName), types: resolved.types, description: body.description ?? null,
      secret, clusters, createdBy: ctx.principal.email, modifiedBy: ctx.principal.email,
    }, { transaction });
    return {
      result: { row: created, clusters },
      audit: [{
        action: 'AUTHENTICATION_CONFIGURED', resourceType: 'Application', resourceName: application.shortName, resourceId: application.uid,
        details: { credential: created.uid, environment: environment.shortName, username: created.username, target: resolved.target, types: resolved.types, password: '***' },
      }],
    };
  });
  const location = itemHref(ctx.base, credentialResource.collection, row.uid);
  return plain([{ authData: { username: row.username, password, provider: providerOf(resolved.target), clusters } }], 201, { Location: location });
}, mayCreate);

/** `DELETE /application_authentications {applicationId, environmentId, target?, configs:{username}}`. */
export const deleteApplicationAuthentication: Handler = async (ctx) => {
  const body = (ctx.body ?? {}) as { applicationId?: unknown; environmentId?: unknown; target?: string | null; configs?: { username?: unknown } | null };
  const application = await editableApplication(ctx, 'applicationId', body.applicationId, false);
  const environment = await resolveRequiredBodyRef(environmentResource, ctx, 'environmentId', body.environmentId);
  const username = body.configs?.username;
  if (typeof username !== 'string' || username === '') throw new BadRequestError(['configs.username: is required'], [{ field: 'configs.username', message: 'is required' }]);
  const where: Record<string, unknown> = { applicationUid: application.uid, environmentUid: environment.uid, username };
  if (body.target) where.target = body.target;
  const row = await ctx.models.ApplicationCredential.findOne({ where });
  if (!row) throw new NotFoundError(`No credential ${username} of application ${application.shortName} in environment ${environment.shortName}`);
  await h.remove({ ...ctx, params: { ...ctx.params, id: row.uid } });
  return noContent();
};

/**
 * The credential searches answer a plain JSON array whatever the Accept (docs/contract.md §5.12), paged by `page`/`size`.
 * `type`, when given, keeps the credentials holding that type.
 */
const credentialSearch = (o: { environment: boolean; type: 'required' | 'optional' | 'none' }): Handler => async (ctx) => {
  const arg = (name: string) => {
    const v = ctx.rawQuery[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const required = (name: string) => {
    const v = arg(name);
    if (v === undefined || v === '') throw new BadRequestError([`${name}: is required`], [{ field: name, message: 'is required' }]);
    return v;
  };
  const application = await editableApplication(ctx, 'applicationId', required('applicationId'), true);
  const where: Record<string, unknown> = { applicationUid: application.uid };
  if (o.environment) where.environmentUid = (await resolveQueryRef(environmentResource, ctx, required('environmentId'))).uid;
  const typeArg = o.type === 'required' ? required('type') : o.type === 'optional' ? arg('type') : undefined;
  const type = typeArg === undefined || typeArg === '' ? undefined : parseCredentialType(typeArg);
  if (typeArg && !type) {
    const message = `must be one of ${CREDENTIAL_TYPES.join(', ')}`;
    throw new BadRequestError([`type: ${message}`], [{ field: 'type', message, rejectedValue: typeArg }]);
  }
  const page = parsePage(ctx.rawQuery, { created_at: 'createdAt', username: 'username' });
  const rows = (await ctx.models.ApplicationCredential.findAll({ where: { [Op.and]: [where, { tenantUid: ctx.principal.tenant.uid }] }, order: [['createdAt', 'ASC'], ['uid', 'ASC']] }))
    .filter((r) => !type || ((r.types as string[]) ?? []).includes(type));
  const slice = rows.slice(page.page * page.size, (page.page + 1) * page.size);
  const rendered = await items(credentialResource, slice, await loadRelated(credentialResource, slice, ctx), ctx);
  return plain(rendered.map(({ _links: _l, _embedded: _e, ...rest }) => rest));
};

export const findApplicationCredentialsByApplicationAndEnvironment = credentialSearch({ environment: true, type: 'none' });
export const findApplicationCredentialsByApplicationAndEnvironmentAlias = credentialSearch({ environment: true, type: 'none' });
export const findApplicationCredentialsByApplicationEnvironmentAndType = credentialSearch({ environment: true, type: 'required' });
export const findApplicationCredentialsByApplication = credentialSearch({ environment: false, type: 'optional' });
export const findApplicationCredentialsByApplicationAndType = credentialSearch({ environment: false, type: 'required' });

export const listApplicationCredentialSearches = replacesGeneric((ctx) => {
  const base = `${ctx.base}/application_credentials/search`;
  const t = (name: string, params: string) => ({ href: `${base}/${name}{?${params},page,size,sort}`, templated: true });
  return {
    status: 200, contentType: 'application/hal+json', body: {
      _links: {
        findAllByApplicationIdAndEnvironmentId: t('findAllByApplicationIdAndEnvironmentId', 'applicationId,environmentId'),
        findByApplicationIdAndEnvironmentId: t('findByApplicationIdAndEnvironmentId', 'applicationId,environmentId'),
        findAllByApplicationIdAndEnvironmentIdAndTypesType: t('findAllByApplicationIdAndEnvironmentIdAndTypesType', 'applicationId,environmentId,type'),
        findByApplicationId: t('findByApplicationId', 'applicationId,type'),
        findByApplicationIdAndTypesType: t('findByApplicationIdAndTypesType', 'applicationId,type'),
        self: { href: base },
      },
    },
  };
});
