import { Op } from 'sequelize';
import { adminOnlyPolicy } from '../auth/policies/admin-only';
import type { AuditEntry } from '../models/audit-event';
import { DEFAULT_TOPIC_NAME_PATTERN } from '../models/instance';
import { BadRequestError } from '../core/errors';
import type { Change, Resource } from './_lib/resource';
import { clusterResource } from './clusters';
import { supportTierResource } from './reference-data';

const PLACEHOLDERS = new Set(['tenant', 'instance', 'environment', 'stream']);

/** `{stream}` is required; no placeholder other than `{tenant}`, `{instance}`, `{environment}`, `{stream}`. */
function topicNamePatternProblem(pattern: string): string | null {
  const used = [...pattern.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
  const unknown = used.filter((p) => !PLACEHOLDERS.has(p));
  if (unknown.length > 0) return `unknown placeholder {${unknown[0]}}; only {tenant}, {instance}, {environment} and {stream} are allowed`;
  if (!used.includes('stream')) return 'must contain {stream}';
  return null;
}

/** One CLUSTER_ADDED / CLUSTER_REMOVED per cluster gained or lost. */
function clusterEvents({ row, before, after }: Change): AuditEntry[] {
  if (!after) return []; // a delete is audited as DELETED only
  const old = (before?.clusters as string[] | undefined) ?? [];
  const now = (after?.clusters as string[] | undefined) ?? [];
  const event = (action: string, cluster: string): AuditEntry => ({ action, resourceType: 'Instance', resourceName: row.name, resourceId: row.uid, details: { cluster } });
  return [
    ...now.filter((c) => !old.includes(c)).map((c) => event('CLUSTER_ADDED', c)),
    ...old.filter((c) => !now.includes(c)).map((c) => event('CLUSTER_REMOVED', c)),
  ];
}

const key = (v: unknown) => String(v).toLowerCase();

export const instanceResource: Resource<'instances', 'findByName' | 'findByShortName' | 'findByAttributes'> = {
  collection: 'instances',
  itemRel: 'instance',
  model: (m) => m.Instance,
  auditType: 'Instance',
  auditName: (row) => row.name,
  fields: [
    { name: 'name', unique: true },
    { name: 'shortName', unique: true, immutable: true },
    { name: 'description' },
    { name: 'topicNamePattern', default: () => DEFAULT_TOPIC_NAME_PATTERN, input: (v) => v ?? DEFAULT_TOPIC_NAME_PATTERN },
    { name: 'enabledAuthenticationMethods', kind: 'list', default: (ctx) => ctx.principal.tenant.supportedAuthenticationMethods ?? [] },
    { name: 'granularBrowsePermission', default: () => false, input: (v) => v ?? false },
    { name: 'connectEnabled', default: () => true, input: (v) => v ?? true },
  ],
  associations: [
    { rel: 'clusters', target: () => clusterResource, many: true, join: 'InstanceCluster' },
    { rel: 'supportTier', target: () => supportTierResource, many: false, attribute: 'supportTierUid' },
  ],
  searches: [
    { name: 'findByName', single: true, params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: key(a.name) }) },
    { name: 'findByShortName', single: true, params: [{ name: 'shortName', required: true }], where: (a) => ({ shortNameKey: key(a.shortName) }) },
    {
      name: 'findByAttributes',
      params: [{ name: 'name' }, { name: 'shortName' }],
      where: (a) => ({ [Op.and]: [a.name !== undefined ? { nameKey: key(a.name) } : {}, a.shortName !== undefined ? { shortNameKey: key(a.shortName) } : {}] }),
    },
  ],
  policy: adminOnlyPolicy,
  check: (_ctx, values) => {
    if (typeof values.topicNamePattern !== 'string') return;
    const problem = topicNamePatternProblem(values.topicNamePattern);
    if (problem) {
      throw new BadRequestError([`topicNamePattern: ${problem}`], [{ field: 'topicNamePattern', message: problem, rejectedValue: values.topicNamePattern }]);
    }
  },
  blockers: async (ctx, row, transaction) => {
    const used = await ctx.models.Environment.count({ where: { instanceUid: row.uid }, transaction });
    return used > 0 ? `Instance ${row.name} has ${used} environment(s); delete them first` : null;
  },
  extraAudit: clusterEvents,
};

