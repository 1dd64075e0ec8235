/**
 * External providers and the topic wizard (docs/contract.md §10): validate credentials, count resources, show and import
 * topics. Tenant admins only. The `Svc-*` credentials serve the call: they are not stored, logged or audited.
 */
import { canRunWizard } from '../auth/policies/tenant';
import { parseProviderConfig, type ProviderPurpose } from '../providers/fields';
import { adapterFor } from '../providers';
import { isInternalTopic } from '../providers/import-rules';
import { ProviderRejectedError, ProviderUnavailableError, ProviderUnsupportedError, type ProviderAdapter, type ProviderTopic } from '../providers/types';
import type { RequestContext } from '../core/context';
import { BadRequestError, ForbiddenError, HttpError, UnprocessableError } from '../core/errors';
import { plain, withPrecheck, type Handler } from './_lib/reply';
import { isNone } from './_lib/references';
import type { Resource } from './_lib/resource';
import { resolveBodyRef, resolveRequiredBodyRef } from './_lib/store';
import { environmentResource } from './environments';
import { groupResource } from './groups';
import { confidentialityResource, integrityResource } from './reference-data';
import { importTopics } from './wizard/import';

async function mayUseProviders(ctx: RequestContext): Promise<void> {
  if (!canRunWizard(ctx, ctx.principal.tenant)) throw new ForbiddenError('Only tenant admins may use external providers and the topic wizard');
}

function adapterOf(ctx: RequestContext, fields: unknown, purpose: ProviderPurpose, where = ''): ProviderAdapter {
  const parsed = parseProviderConfig(fields, purpose, where);
  if (!parsed.ok) throw new BadRequestError(parsed.problems.map((p) => `${p.field}: ${p.message}`), parsed.problems);
  const { config } = ctx.deps;
  return adapterFor(parsed.config, { aivenApiUrl: config.aivenApiUrl, confluentCloudApiUrl: config.confluentCloudApiUrl, timeoutMs: config.providerTimeoutMs });
}

/** A provider's failure as this API answers it: refused or unsupported → 422, unreachable → 502. */
function providerFailure(err: unknown): unknown {
  if (err instanceof ProviderRejectedError || err instanceof ProviderUnsupportedError) return new UnprocessableError(err.message);
  if (err instanceof ProviderUnavailableError) return new HttpError(502, err.message, [err.message]);
  return err;
}

async function asked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw providerFailure(err);
  }
}

export const validateProviderCredentials: Handler = withPrecheck(async (ctx) => {
  await mayUseProviders(ctx);
  const adapter = adapterOf(ctx, ctx.body, 'validate');
  try {
    return plain({ credentialsValid: true, error: null, environments: await adapter.validate() });
  } catch (err) {
    // Refused credentials are an answer, not an error (docs/contract.md §10).
    if (err instanceof ProviderRejectedError) return plain({ credentialsValid: false, error: err.message, environments: null });
    throw providerFailure(err);
  }
}, mayUseProviders);

export const discoverProviderResources: Handler = withPrecheck(async (ctx) => {
  await mayUseProviders(ctx);
  const adapter = adapterOf(ctx, ctx.body, 'discover');
  return plain(await asked(() => adapter.discover()));
}, mayUseProviders);

const configsOf = (ctx: RequestContext) => (ctx.body as { providerConfigs?: unknown } | null)?.providerConfigs;

async function providerTopics(adapter: ProviderAdapter): Promise<ProviderTopic[]> {
  const topics = await asked(() => adapter.topics());
  return topics.filter((t) => !isInternalTopic(t.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export const getWizardTopicsInfo: Handler = withPrecheck(async (ctx) => {
  await mayUseProviders(ctx);
  const adapter = adapterOf(ctx, configsOf(ctx), 'wizard', 'providerConfigs.');
  const topics = await providerTopics(adapter);
  // Only the names the provider has: a tenant's other streams are not read.
  const names = topics.map((t) => t.name.toLowerCase());
  const taken = new Set(names.length === 0 ? [] : (await ctx.models.Stream.findAll({ where: { tenantUid: ctx.principal.tenant.uid, nameKey: names }, attributes: ['nameKey'], raw: true }))
    .map((row) => (row as unknown as { nameKey: string }).nameKey));
  const schemaOf = (s: ProviderTopic['keySchema']) => (s ? { subject: s.subject, type: s.type, version: s.version } : null);
  return plain({
    total: topics.length,
    topics: topics.map((t) => ({
      name: t.name, partitions: t.partitions, replicationFactor: t.replicationFactor, retentionMs: t.retentionMs, cleanupPolicy: t.cleanupPolicy,
      configs: t.configs, keySchema: schemaOf(t.keySchema), valueSchema: schemaOf(t.valueSchema), acls: t.acls, exists: taken.has(t.name.toLowerCase()),
    })),
  });
}, mayUseProviders);

interface ImportBody {
  providerConfigs: unknown; environment: unknown; owners: unknown; topics: string[];
  importAcls?: boolean; importSchemas?: boolean; dryRun?: boolean; confidentiality?: unknown; integrity?: unknown;
}

/** An optional reference of the body, resolved once (400 naming it) rather than failing every topic. */
const optionalRef = async (resource: Resource, ctx: RequestContext, field: string, value: unknown) =>
  (isNone(value) ? undefined : (await resolveBodyRef(resource, ctx, field, value)).uid);

export const importWizardTopics: Handler = withPrecheck(async (ctx) => {
  await mayUseProviders(ctx);
  const body = ctx.body as ImportBody;
  const adapter = adapterOf(ctx, body.providerConfigs, 'wizard', 'providerConfigs.');
  const environment = await resolveRequiredBodyRef(environmentResource, ctx, 'environment', body.environment);
  const owners = await resolveRequiredBodyRef(groupResource, ctx, 'owners', body.owners);
  const classification = {
    confidentiality: await optionalRef(confidentialityResource, ctx, 'confidentiality', body.confidentiality),
    integrity: await optionalRef(integrityResource, ctx, 'integrity', body.integrity),
  };
  const topics = await providerTopics(adapter);
  const report = await importTopics(ctx, topics, {
    provider: adapter.type, topics: body.topics, environment, owners, classification,
    importAcls: body.importAcls ?? true, importSchemas: body.importSchemas ?? true, dryRun: body.dryRun ?? false,
  });
  return plain(report);
}, mayUseProviders);
