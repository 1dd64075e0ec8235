/**
 * The vocabulary of `GET /auth` (docs/contract.md §7.1): resource types and the actions of each. Pure: parsing only, no
 * decisions. Input is matched like enums elsewhere — any case, `_`, `-` and spaces ignored — and `Topic` is STREAM.
 */
export const RESOURCE_TYPES = [
  'TENANT', 'USER', 'GROUP', 'INSTANCE', 'CLUSTER', 'ENVIRONMENT', 'STREAM', 'STREAM_CONFIG', 'SCHEMA',
  'SCHEMA_VERSION', 'APPLICATION', 'APPLICATION_PRINCIPAL', 'APPLICATION_CREDENTIAL', 'APPLICATION_ACCESS_GRANT',
  'APPLICATION_DEPLOYMENT',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const CRUD_VERBS = ['VIEW', 'EDIT', 'DELETE', 'CREATE'] as const;
export type CrudVerb = (typeof CRUD_VERBS)[number];

/** Actions that are not `<TYPE>_<CRUD>`, and the one type each belongs to. */
export const SPECIAL_ACTIONS = {
  USER_ASSIGN_ROLES: 'USER',
  TENANT_WIZARD: 'TENANT',
  ENVIRONMENT_SYNCHRONIZE: 'ENVIRONMENT',
  STREAM_CONFIG_BROWSE_PERMISSION: 'STREAM_CONFIG',
  SCHEMA_TRANSFER_OWNERSHIP: 'SCHEMA',
  GRANT_REQUEST: 'APPLICATION',
  GRANT_APPROVE: 'APPLICATION_ACCESS_GRANT',
  GRANT_DENY: 'APPLICATION_ACCESS_GRANT',
  GRANT_REVOKE: 'APPLICATION_ACCESS_GRANT',
  GRANT_CANCEL: 'APPLICATION_ACCESS_GRANT',
  DEPLOYMENT_OPERATE: 'APPLICATION_DEPLOYMENT',
} as const satisfies Record<string, ResourceType>;
export type SpecialAction = keyof typeof SPECIAL_ACTIONS;

export type Verb = CrudVerb | SpecialAction;

export interface ParsedQuestion {
  type: ResourceType;
  /** Canonical action name, e.g. `ENVIRONMENT_EDIT` or `GRANT_APPROVE`. */
  action: string;
  verb: Verb;
}

export type ParseResult = { ok: true; question: ParsedQuestion } | { ok: false; field: 'action' | 'resourceType'; problem: string };

const squash = (s: string) => s.replace(/[\s_-]+/g, '').toUpperCase();

const TYPE_BY_KEY = new Map<string, ResourceType>([
  ...RESOURCE_TYPES.map((t) => [squash(t), t] as [string, ResourceType]),
  ['TOPIC', 'STREAM'],
]);

/** Every action name, canonical, keyed by its squashed form; `TOPIC_*` actions are STREAM's too. */
const ACTIONS = new Map<string, { type: ResourceType; action: string; verb: Verb }>();
for (const type of RESOURCE_TYPES) {
  for (const verb of CRUD_VERBS) ACTIONS.set(squash(`${type}_${verb}`), { type, action: `${type}_${verb}`, verb });
}
for (const verb of CRUD_VERBS) ACTIONS.set(squash(`TOPIC_${verb}`), { type: 'STREAM', action: `STREAM_${verb}`, verb });
for (const [action, type] of Object.entries(SPECIAL_ACTIONS)) ACTIONS.set(squash(action), { type, action, verb: action as SpecialAction });

export function parseResourceType(raw: string): ResourceType | undefined {
  return TYPE_BY_KEY.get(squash(raw));
}

/** Reads `action` and `resourceType`; a missing, unknown or mismatched one is named in the answer. */
export function parseQuestion(action: unknown, resourceType: unknown): ParseResult {
  if (typeof action !== 'string' || action.trim() === '') return { ok: false, field: 'action', problem: 'is required' };
  if (typeof resourceType !== 'string' || resourceType.trim() === '') return { ok: false, field: 'resourceType', problem: 'is required' };
  const type = parseResourceType(resourceType);
  if (!type) return { ok: false, field: 'resourceType', problem: `unknown resource type '${resourceType.slice(0, 64)}'; use one of ${RESOURCE_TYPES.join(', ')}` };
  const known = ACTIONS.get(squash(action));
  if (!known) return { ok: false, field: 'action', problem: `unknown action '${action.slice(0, 64)}'` };
  if (known.type !== type) return { ok: false, field: 'action', problem: `${known.action} is not an action on ${type}` };
  return { ok: true, question: known };
}
