/**
 * A resource is described once by a descriptor; the generic layer (crud, associations, search, render) serves
 * every endpoint of it from that. Wire names equal model attribute names unless `attribute` says otherwise.
 */
import type { Transaction, WhereOptions } from 'sequelize';
import type { Models } from '../../models';
import type { AuditEntry } from '../../models/audit-event';
import type { Row, RowModel } from '../../models/define';
import type { RequestContext } from '../../core/context';
import type { Policy } from '../../auth/policy';

export interface FieldDef {
  name: string;
  /** Model attribute when it differs from the wire name. */
  attribute?: string;
  /** `map`: string map merged key by key on PATCH (`null` removes a key). `list`: replaced whole. */
  kind?: 'scalar' | 'map' | 'list';
  /** Value stored when the field is absent on create or PUT. */
  default?: (ctx: RequestContext) => unknown;
  /** Another value than the current one → 422. */
  immutable?: boolean;
  /** Not taken from input (computed, or set by the domain). */
  readOnly?: boolean;
  /** Accepted on input, never rendered (passwords, secrets). */
  writeOnly?: boolean;
  /** Unique per tenant, case-insensitively; a clash answers 409 naming the field. */
  unique?: boolean;
  /** Scalars are sortable unless this is false. */
  sortable?: boolean;
  input?: (value: unknown) => unknown;
  /** Async step after `input` (e.g. hashing a password into its `*Hash` attribute). */
  prepare?: (value: unknown) => Promise<unknown>;
  /** Absent on PUT keeps the stored value instead of resetting it (roles, secrets one cannot read back). */
  keepOnReplace?: boolean;
  output?: (stored: unknown, row: Row) => unknown;
}

export interface AssociationDef {
  rel: string;
  target: () => Resource;
  many: boolean;
  /** To-one: the model attribute holding the target uid. */
  attribute?: string;
  /** To-many: the join model name in Models. */
  join?: keyof Models;
  /**
   * To-many kept on the target rows instead of a join table: the target's attribute holding the source uid (an
   * access's grants). Read-only through the generic layer: body fields and association writes do not change it.
   */
  reverse?: string;
  /** To-many: how the targets appear in `_embedded`, all rows of a page at once, instead of their summaries. */
  embed?: (targets: Row[], ctx: RequestContext) => Promise<Record<string, unknown>[]>;
  required?: boolean;
  immutable?: boolean;
  /**
   * To-one: also rendered as a top-level field holding the target item (as its GET shows it, reduced to the scalar
   * fields, the named `_embedded` entries and the named links), as the application's `owners` (docs/contract.md §5.10).
   */
  inline?: { fields?: string[]; embedded: string[]; links: string[]; /** Spring's `id` (= uid) first. */ id?: boolean };
}

export interface SearchParam {
  name: string;
  required?: boolean;
  /** Repeatable and comma-separated (`statuses=Pending,Approved&statuses=Revoked`): a string array. */
  many?: boolean;
  /** The parameter names a resource: resolved as a reference (unknown → 404). */
  ref?: () => Resource;
}

export interface SearchDef<S extends string = string> {
  name: S;
  params: SearchParam[];
  /** One item (404 when none) instead of a page. */
  single?: boolean;
  where: (args: Record<string, any>, ctx: RequestContext) => WhereOptions | Promise<WhereOptions>;
  /** A page embedded under another relation than the collection's, with items of another shape (docs/contract.md §5.14). */
  render?: { rel: string; items: (rows: Row[], ctx: RequestContext) => Promise<Record<string, unknown>[]> };
}

export interface Change {
  ctx: RequestContext;
  row: Row;
  transaction: Transaction;
  /** Wire values before (undefined on create) and after. */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/**
 * `C` and `S` are the collection and the names of the searches as literal types (`Resource<'clusters', 'findByName'>`):
 * the type check derives from them which operations of the spec the descriptor answers (handlers/_lib/wiring.ts).
 */
export interface Resource<C extends string = string, S extends string = string> {
  /** Collection path segment and index relation, e.g. `environments`. */
  collection: C;
  /** camelCase singular item relation, e.g. `environment`. */
  itemRel: string;
  model: (m: Models) => RowModel;
  /** resourceType of audit entries. */
  auditType: string;
  /** resourceName of audit entries. */
  auditName: (row: Row) => string;
  /**
   * Files CREATED/UPDATED/DELETED under another entity than the row (reference data → the caller's Tenant,
   * docs/contract.md §8): its resourceName and resourceId, and what names the row itself, put first into `details`.
   * May read related rows (a stream config is filed under its stream's name).
   */
  auditAs?: (row: Row, ctx: RequestContext, transaction?: Transaction) => AuditAs | Promise<AuditAs>;
  /** Actions that replace CREATED/UPDATED/DELETED (a stream config is TOPIC_CONFIGURED / TOPIC_UNCONFIGURED). */
  auditActions?: Partial<Record<'CREATED' | 'UPDATED' | 'DELETED', string>>;
  fields: FieldDef[];
  associations: AssociationDef[];
  searches: SearchDef<S>[];
  policy: Policy;
  /** Rows of the caller's tenant; `tenants` overrides it. */
  scope?: (ctx: RequestContext) => WhereOptions;
  /** Domain checks before a create or update is stored; throw a typed error to refuse. */
  check?: (ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction) => void | Promise<void>;
  /** Why the row cannot be deleted (422), or null. */
  blockers?: (ctx: RequestContext, row: Row, transaction: Transaction) => Promise<string | null>;
  /**
   * The UPDATED entry of a change, split or renamed where the contract names a more specific action (a schema's
   * owners change is SCHEMA_OWNERSHIP_TRANSFERRED).
   */
  splitUpdate?: (entry: AuditEntry & { details: Record<string, unknown> }) => AuditEntry[];
  /** Audit entries beyond CREATED/UPDATED/DELETED (e.g. CLUSTER_ADDED). */
  extraAudit?: (change: Change) => AuditEntry[];
  /** Fields computed for the reply (issuerUrl, fullName…). */
  computed?: (row: Row, ctx: RequestContext) => Record<string, unknown>;
  /** Links beyond self, item rel, associations, edit and delete. */
  links?: (row: Row, ctx: RequestContext, self: string, related?: Map<string, Row | Row[] | null>) => Record<string, unknown>;
  /** Fields shown once, in the 201 body of a create only (a generated secret); never stored, audited or logged. */
  reveal?: (ctx: RequestContext, row: Row) => Record<string, unknown> | undefined;
  /** Values set on create that do not come from input (e.g. tenantUid for tenant-less resources). */
  onCreate?: (ctx: RequestContext, values: Record<string, any>, transaction: Transaction) => void | Promise<void>;
  /** After the row and its links are stored (e.g. seeding a new tenant's realm); may answer audit entries of its own. */
  afterCreate?: (ctx: RequestContext, row: Row, transaction: Transaction) => Promise<void | AuditEntry[]>;
}

export interface AuditAs { resourceName: string; resourceId: string; details: Record<string, unknown> }

/** The CREATED/UPDATED/DELETED entry of one change of a row (filed under `auditAs` when the resource has it). */
export async function auditEntry(resource: Resource, generic: 'CREATED' | 'UPDATED' | 'DELETED', row: Row, ctx: RequestContext,
  details: Record<string, unknown> | null, transaction?: Transaction): Promise<AuditEntry> {
  const action = resource.auditActions?.[generic] ?? generic;
  const as = await resource.auditAs?.(row, ctx, transaction);
  if (!as) return { action, resourceType: resource.auditType, resourceName: resource.auditName(row), resourceId: row.uid, details };
  // The context names the row and wins over a value of the same name (a config's `environment` is its short name).
  return { action, resourceType: resource.auditType, resourceName: as.resourceName, resourceId: as.resourceId, details: { ...as.details, ...(details ?? {}), ...as.details } };
}

/** The UPDATED entries of a change, as the resource files them (see `splitUpdate`). */
export async function updateEntries(resource: Resource, row: Row, ctx: RequestContext, changes: Record<string, unknown>, transaction?: Transaction): Promise<AuditEntry[]> {
  const entry = await auditEntry(resource, 'UPDATED', row, ctx, changes, transaction) as AuditEntry & { details: Record<string, unknown> };
  return resource.splitUpdate ? resource.splitUpdate(entry) : [entry];
}

export const attributeOf = (f: FieldDef) => f.attribute ?? f.name;
export const isSortable = (f: FieldDef) => f.sortable ?? ((f.kind ?? 'scalar') === 'scalar' && !f.writeOnly);
