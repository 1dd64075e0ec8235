import type { Transaction } from 'sequelize';
import { applicationPartPolicy, editsApplicationOf } from '../auth/policies/application-part';
import { canEditApplication } from '../auth/policies/application';
import { deploymentCount } from '../models/application-deployment';
import type { Row } from '../models/define';
import { customPrincipalProblem, parsePrincipalCertificates } from '../core/rules/principal-certificates';
import type { RequestContext } from '../core/context';
import { renderOne, resourceHandlers } from './_lib/crud';
import { BadBodyError, BadRequestError, ConflictError, ForbiddenError, UnprocessableError } from '../core/errors';
import { checkIfMatch, validatorHeaders } from './_lib/etag';
import { link, timestamp } from '../core/hal';
import { mutate } from './_lib/mutation';
import { hal, plain, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { replacesGeneric } from './_lib/wiring';
import { findVisible } from './_lib/store';
import { partAssociations, partAuditAs, partSearches, partsOf } from './parts/application-part';

const DUPLICATE = 'errmsg.duplicate.principal';
/** The stored principal column's length. */
const MAX_PRINCIPAL = 1024;

const refuse = (field: string, message: string, rejectedValue?: unknown) => {
  // Certificates and keys are not echoed: a private key must never come back, and a chain says nothing new.
  const shown = field === 'privateKey' || field === 'principal' ? undefined : rejectedValue;
  return new BadRequestError([`${field}: ${message}`], [{ field, message, ...(shown === undefined ? {} : { rejectedValue: shown }) }]);
};

/**
 * docs/contract.md §5.11: the certificate chain (or custom string) becomes the stored principal, its chain, expiry and
 * fingerprint; a private key (Connector only) must match the leaf and is stored sealed; the same identity twice in
 * one environment is 409 `errmsg.duplicate.principal`.
 */
async function check(ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction) {
  const { application, environment } = await partsOf(ctx, row, values, transaction);
  if (!row && !(await canEditApplication(ctx, application))) {
    throw new ForbiddenError(`Only the editors of application ${application.shortName} may add its principals`);
  }
  const connector = application.applicationType === 'Connector';
  const custom = row ? !!row.custom : values.custom === true;
  // A blank key is no key (the provider sends "" for an unset one).
  if (values.privateKey === '') delete values.privateKey;
  const key = values.privateKey ?? null;
  if (key !== null && typeof key !== 'string') throw refuse('privateKey', 'must be a PEM string');
  if ('custom' in values && values.custom !== null && typeof values.custom !== 'boolean') throw refuse('custom', 'must be true or false', values.custom);
  // The kind of a stored principal never changes: an update may repeat it, not flip it (nor store it beside a certificate).
  if (row && 'custom' in values) {
    if (values.custom !== null && values.custom !== custom) throw new UnprocessableError('custom: cannot be changed; delete the principal and create another');
    delete values.custom;
  }
  if (key !== null && (!connector || custom)) throw refuse('privateKey', connector ? 'a custom principal takes no private key' : 'only principals of Connector applications take a private key');
  if (row && !('principal' in values)) {
    if (key !== null) throw refuse('principal', 'is required with a new privateKey');
    return;
  }
  if (values.principal === null || values.principal === undefined) throw refuse('principal', 'is required');
  if (custom) {
    const problem = customPrincipalProblem(values.principal);
    if (problem) throw refuse('principal', problem);
    Object.assign(values, { type: 'OAUTH', custom: true, applicationPem: null, expiresOn: null, fingerprint: null, identity: `custom:${String(values.principal).toLowerCase()}` });
  } else {
    // A new certificate without a key keeps the stored key only if it still matches.
    const storedKey = key === null && !('privateKey' in values) && row?.privateKey ? ctx.deps.secrets.open(row.privateKey) : null;
    const parsed = parsePrincipalCertificates(values.principal, key ?? storedKey, new Date());
    if (parsed.kind === 'refused') {
      throw refuse(parsed.field === 'privateKey' && storedKey ? 'privateKey' : parsed.field, storedKey && parsed.field === 'privateKey' ? 'the stored private key does not match the new certificate; send its key' : parsed.message);
    }
    if (parsed.principal.length > MAX_PRINCIPAL) throw refuse('principal', `the certificate's subject is longer than ${MAX_PRINCIPAL} characters`);
    Object.assign(values, {
      principal: parsed.principal, applicationPem: parsed.applicationPem, expiresOn: parsed.expiresOn, fingerprint: parsed.fingerprint,
      identity: parsed.fingerprint, type: 'SSL', custom: false,
    });
  }
  if (key !== null) values.privateKey = ctx.deps.secrets.seal(key);
  if (!row) values.active = !connector;
  const twin = await ctx.models.ApplicationPrincipal.findOne({ where: { environmentUid: environment.uid, identity: values.identity }, attributes: ['uid'], transaction });
  if (twin && twin.uid !== row?.uid) throw new ConflictError(DUPLICATE);
}

const policy = applicationPartPolicy({ environmentOwnersSee: true });

export const principalResource: Resource<'application_principals', 'findByApplication' | 'findByApplicationAndEnvironment' | 'findByEnvironment'> = {
  collection: 'application_principals',
  itemRel: 'applicationPrincipal',
  model: (m) => m.ApplicationPrincipal,
  auditType: 'Application',
  auditName: (row) => row.uid,
  auditAs: partAuditAs('principal', (row) => ({ subject: row.principal })),
  auditActions: { CREATED: 'AUTHENTICATION_CONFIGURED', UPDATED: 'AUTHENTICATION_CONFIGURED', DELETED: 'AUTHENTICATION_UNCONFIGURED' },
  fields: [
    { name: 'principal' },
    { name: 'privateKey', writeOnly: true, keepOnReplace: true },
    { name: 'custom', writeOnly: true },
    { name: 'type', readOnly: true },
    { name: 'applicationPem', readOnly: true },
    { name: 'expiresOn', readOnly: true, output: timestamp },
    { name: 'active', readOnly: true, output: (v) => !!v },
    { name: 'fingerprint', readOnly: true },
  ],
  computed: (row) => ({ privateKeyUploaded: !!row.privateKey }),
  associations: partAssociations(),
  searches: partSearches('findByApplication', 'findByApplicationAndEnvironment', 'findByEnvironment'),
  policy: {
    ...policy,
    actionLinks: async (ctx, row) => {
      if (row.active || !(await isConnectorPrincipal(ctx, row)) || !(await editsApplicationOf(ctx, row))) return {};
      return { activate: link(`${ctx.base}/application_authentications/${row.uid}/activate`) };
    },
  },
  check,
};

async function isConnectorPrincipal(ctx: RequestContext, row: Row): Promise<boolean> {
  const application = await ctx.models.Application.findOne({ where: { uid: row.applicationUid }, attributes: ['applicationType'] });
  return application?.applicationType === 'Connector';
}

const h = resourceHandlers(principalResource);
/**
 * docs/contract.md §6.3: the active principal of a connector deployed in its environment stays (400, not 422: the
 * Terraform provider must read why); any other principal goes.
 */
export const deleteApplicationPrincipal = replacesGeneric(async (ctx) => {
  const row = await findVisible(principalResource, ctx, ctx.params.id);
  if (row.active && (await isConnectorPrincipal(ctx, row)) && (await editsApplicationOf(ctx, row))
    && (await deploymentCount(ctx.models.ApplicationDeployment, { applicationUid: row.applicationUid, environmentUid: row.environmentUid })) > 0) {
    const message = 'Unable to delete the active principal of a deployed connector; activate another principal first';
    throw new BadRequestError([message], null, message);
  }
  return h.remove(ctx);
});

/**
 * docs/contract.md §5.11, §11.6: the body is a JSON array of one principal (a bare object too) and the reply the new
 * principal's URI as a JSON string, which is what the Terraform provider reads.
 */
export const createApplicationPrincipal = replacesGeneric(withPrecheck(async (ctx) => {
  let element = ctx.body;
  if (Array.isArray(element)) {
    if (element.length !== 1) throw new BadRequestError(['body: exactly one principal per request'], [{ field: 'body', message: 'exactly one principal per request' }]);
    element = element[0];
  }
  if (!element || typeof element !== 'object' || Array.isArray(element)) throw new BadBodyError();
  const reply = await h.create({ ...ctx, body: element });
  const location = String(reply.headers?.Location);
  return plain(location, 201, { Location: location });
}, h.create.precheck!));

/**
 * docs/contract.md §6.3: activating a Connector principal deactivates the application's other principal in that
 * environment, in one transaction (the application's principals there are locked first, so two activations
 * cannot leave two active ones). Activating the active one changes nothing.
 */
export const activateApplicationPrincipal: Handler = async (ctx) => {
  const row = await findVisible(principalResource, ctx, ctx.params.id);
  if (!(await editsApplicationOf(ctx, row))) throw new ForbiddenError('Only the editors of the application may activate its principals');
  checkIfMatch(ctx, row);
  if (!(await isConnectorPrincipal(ctx, row))) throw new UnprocessableError('Only principals of Connector applications are activated; the others are always active');
  if (!row.active) {
    await mutate(ctx, async (transaction) => {
      const { ApplicationPrincipal } = ctx.models;
      const mine = await ApplicationPrincipal.findAll({
        where: { applicationUid: row.applicationUid, environmentUid: row.environmentUid }, order: [['uid', 'ASC']], lock: transaction.LOCK.UPDATE, transaction,
      });
      const current = mine.find((p) => p.uid === row.uid);
      if (!current || current.active) return { result: undefined, audit: [] };
      const deactivated: string[] = [];
      for (const other of mine.filter((p) => p.active)) {
        other.set({ active: false, modifiedBy: ctx.principal.email });
        await other.save({ transaction });
        deactivated.push(other.uid);
      }
      current.set({ active: true, modifiedBy: ctx.principal.email });
      await current.save({ transaction });
      const { application, environment } = await partsOf(ctx, row, {}, transaction);
      return {
        result: undefined,
        audit: [{
          action: 'AUTHENTICATION_CONFIGURED', resourceType: 'Application', resourceName: application.shortName, resourceId: application.uid,
          details: { principal: row.uid, environment: environment.shortName, activated: row.uid, deactivated: deactivated[0] ?? null },
        }],
      };
    });
    await row.reload();
  }
  return hal(await renderOne(principalResource, row, ctx), 200, validatorHeaders(row));
};
