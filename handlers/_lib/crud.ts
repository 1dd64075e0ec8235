/** Collection and item endpoints of any resource: list, search, create, get, replace, patch, delete. */
import { UniqueConstraintError, type Transaction } from 'sequelize';
import type { AuditEntry } from '../../models/audit-event';
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { BadRequestError, ForbiddenError, NotFoundError, UnprocessableError } from '../../core/errors';
import { checkIfMatch, notModified, validatorHeaders } from './etag';
import { link } from '../../core/hal';
import { checkUnique, diff, readInput, uniqueIndexClash, type Input, type Mode } from './input';
import { mutate } from './mutation';
import { parsePage, sortableAttributes } from './paging';
import { accepts, COMPACT, hal, noContent, withPrecheck, type CheckedHandler, type Handler, type Reply } from './reply';
import { collection, compact, items, selfHref, wireFields } from './render';
import { auditEntry, updateEntries, type Resource, type SearchDef } from './resource';
import { findOneWhere, findPage, findVisible, loadRelated, resolveQueryRef, setLinks, type Related } from './store';
import { writtenRelated } from './written';
import type { Model, ModelStatic, WhereOptions } from 'sequelize';
import type { Models } from '../../models';
import type { RelatedWanted } from '../../models/caller';
import type { Targets } from '../../models/data-access';

/** Wire values plus association uids: what audit details compare. */
function snapshotOf(resource: Resource, row: Row, related: Related, ctx: RequestContext): Record<string, unknown> {
  const out: Record<string, unknown> = wireFields(resource, row, ctx);
  for (const a of resource.associations) {
    const t = related.get(row.uid)?.get(a.rel);
    out[a.rel] = a.many ? ((t as Row[]) ?? []).map((x) => x.uid) : (t as Row | null)?.uid ?? null;
  }
  return out;
}

async function snapshot(resource: Resource, row: Row, ctx: RequestContext, transaction?: Transaction) {
  const related = await loadRelated(resource, [row], ctx, transaction, toOneReadWith(resource, row, ctx));
  return { values: snapshotOf(resource, row, related, ctx), related };
}

/**
 * The to-one targets read with the caller for this very row (readsItem, to-one only, on update and delete), if it was: the row names them, and the
 * write's version check holds the row to what was read. A to-many list is read in the transaction all the same.
 */
function toOneReadWith(resource: Resource, row: Row, ctx: RequestContext): Map<string, Targets> | undefined {
  const early = ctx.prefetched;
  if (early?.row !== row || !early.targets) return undefined;
  const toOne = new Set(resource.associations.filter((a) => !a.many).map((a) => a.rel));
  return new Map([[row.uid as string, new Map([...early.targets].filter(([rel]) => toOne.has(rel)))]]);
}

/** One item as GET shows it; `related`: its targets when the caller knows them (a write just made them). */
export async function renderOne(resource: Resource, row: Row, ctx: RequestContext, transaction?: Transaction, related?: Related) {
  return (await items(resource, [row], related ?? await loadRelated(resource, [row], ctx, transaction), ctx))[0];
}

export async function listing(resource: Resource, ctx: RequestContext, where: WhereOptions | undefined, path: string, extra: [string, string][], isSearch: boolean,
  render?: SearchDef['render']): Promise<Reply> {
  const page = parsePage(ctx.rawQuery, sortableAttributes(resource));
  const full = !render && !accepts(ctx, COMPACT);
  // What a full page renders is read with its rows where it can be (PostgreSQL: store.findPage).
  const { rows, total, capped, targets } = await findPage(resource, ctx, where, page, full ? relatedWanted(resource, ctx.models) : undefined);
  const options = { path, extra, page, total, capped, canCreate: await resource.policy.canCreate(ctx), isSearch, rel: render?.rel };
  if (accepts(ctx, COMPACT)) return { status: 200, body: compact(resource, rows, options, ctx), contentType: COMPACT };
  if (render) return hal(collection(resource, await render.items(rows, ctx), options, ctx));
  const related = await loadRelated(resource, rows, ctx, undefined, targets);
  return hal(collection(resource, await items(resource, rows, related, ctx), options, ctx));
}

/** `earlier`: the row's targets before an update; links the body gives unchanged are not written again. */
async function store(resource: Resource, ctx: RequestContext, mode: Mode, row: Row | undefined, transaction: Transaction, earlier?: Related): Promise<{ saved: Row; input: Input }> {
  const input = await readInput(resource, ctx, mode, row, transaction);
  const { values, links } = input;
  if (resource.check) await resource.check(ctx, values, row, transaction);
  const { data } = ctx.models;
  // Where an INSERT can meet a unique clash without failing the transaction, a create looks for the clash only
  // when it met one: the unique index checks every create anyway.
  const afterClash = !row && data.insertUnlessClash !== undefined;
  if (!afterClash) await checkUnique(resource, ctx, values, row, transaction);
  const actor = ctx.principal.email;
  const relinked = [...links].filter(([assoc, uids]) => !row || !sameLinks(earlier?.get(row.uid)?.get(assoc.rel), uids));
  let saved: Row;
  try {
    if (row) {
      row.set({ ...values, modifiedBy: actor });
      // Links changed alone still change what the item answers: its version (ETag) and Last-Modified move with them.
      // (A timestamp is read-only to set() but when raw; raw with an object would forget what changed.)
      if (relinked.length > 0) {
        row.set('modifiedAt', new Date(), { raw: true });
        row.changed('modifiedAt', true);
      }
      saved = await data.update(row, transaction);
    } else {
      const extra: Record<string, unknown> = { tenantUid: ctx.principal.tenant.uid, ...values, createdBy: actor, modifiedBy: actor };
      if (resource.onCreate) await resource.onCreate(ctx, extra, transaction);
      const built = resource.model(ctx.models).build(extra);
      const written = afterClash ? await data.insertUnlessClash!(built, transaction) : null;
      if (!written && afterClash) await checkUnique(resource, ctx, values, row, transaction);
      // No clash a unique field names: the plain INSERT fails with the index's own error, a pair the resource's
      // check answers when the request runs again (handlers/_lib/conflict-retry), now that it sees the winner.
      saved = written ?? await data.insert(built, transaction);
    }
  } catch (err) {
    throw (err instanceof UniqueConstraintError && uniqueIndexClash(resource, ctx, values, err)) || err;
  }
  for (const [assoc, uids] of relinked) await setLinks(ctx, assoc, saved.uid, uids, transaction, !row);
  return { saved, input };
}

/** The targets linked before are those given, in the same order (each once, as setLinks stores them). */
function sameLinks(before: Row | Row[] | null | undefined, uids: string[]): boolean {
  if (!Array.isArray(before)) return false;
  const given = [...new Set(uids)];
  return given.length === before.length && given.every((uid, i) => before[i].uid === uid);
}

/** A row written, its targets as they now are (what the reply renders) and its audit entries. */
export interface Written { row: Row; related: Related; audit: AuditEntry[] }

/**
 * One create from `ctx.body`, as POST makes it, inside the caller's transaction: the row and its audit entries
 * (the first one is the CREATED entry of the row itself). The caller checks the right to create.
 */
export async function createWithin(resource: Resource, ctx: RequestContext, transaction: Transaction): Promise<Written> {
  const { saved, input } = await store(resource, ctx, 'create', undefined, transaction);
  const followUp = resource.afterCreate ? await resource.afterCreate(ctx, saved, transaction) : undefined;
  // What afterCreate adds is not in the input: the targets are read then.
  const related = resource.afterCreate ? await loadRelated(resource, [saved], ctx, transaction) : await writtenRelated(resource, saved, input, ctx, transaction);
  const after = snapshotOf(resource, saved, related, ctx);
  const change = { ctx, row: saved, transaction, after };
  return {
    row: saved,
    related,
    audit: [
      await auditEntry(resource, 'CREATED', saved, ctx, after, transaction),
      ...(followUp ?? []),
      ...(resource.extraAudit ? resource.extraAudit(change) : []),
    ],
  };
}

/**
 * One update of `row` from `ctx.body`, as PUT (`replace`) or PATCH (`patch`) makes it, inside the caller's
 * transaction: the row and its audit entries (none when nothing changed; the first one is the UPDATED entry of the
 * row itself). The caller checks the right to edit and the precondition.
 */
export async function updateWithin(resource: Resource, ctx: RequestContext, mode: Exclude<Mode, 'create'>, row: Row, transaction: Transaction): Promise<Written> {
  const { values: before, related: earlier } = await snapshot(resource, row, ctx, transaction);
  const { saved: next, input } = await store(resource, ctx, mode, row, transaction, earlier);
  const related = await writtenRelated(resource, next, input, ctx, transaction, earlier);
  const after = snapshotOf(resource, next, related, ctx);
  const changes: Record<string, unknown> = { ...diff(before, after), ...writeOnlyChanges(resource, ctx) };
  const audit = Object.keys(changes).length === 0 ? [] : [
    ...(await updateEntries(resource, next, ctx, changes, transaction)),
    ...(resource.extraAudit ? resource.extraAudit({ ctx, row: next, transaction, before, after }) : []),
  ];
  return { row: next, related, audit };
}

/**
 * The associations a GET of one item renders whose targets can be read with the caller (store.loadRelated), per
 * set of models (each holds its own model classes: a process may run more than one, as the tests do).
 */
const wanted = new WeakMap<Models, Map<Resource, RelatedWanted[]>>();
const wantedToOne = new WeakMap<Models, Map<Resource, RelatedWanted[]>>();
function relatedWanted(resource: Resource, models: Models, toOneOnly = false): RelatedWanted[] {
  const cache = toOneOnly ? wantedToOne : wanted;
  let byResource = cache.get(models);
  if (!byResource) cache.set(models, (byResource = new Map()));
  let list = byResource.get(resource);
  if (!list) {
    list = resource.associations.filter((a) => !a.reverse && !(toOneOnly && a.many)).map((a): RelatedWanted => (a.many
      ? { rel: a.rel, target: a.target().model(models), join: models[a.join!] as unknown as ModelStatic<Model> }
      : { rel: a.rel, target: a.target().model(models), attribute: a.attribute! }));
    byResource.set(resource, list);
  }
  return list;
}

/**
 * Marks a handler that first reads the one item its `id` path parameter names: the caller's statement reads that
 * row and the targets of its associations alongside (store.findByUid and loadRelated take them); `toOneOnly`: only
 * its to-one targets (what an update's snapshot takes).
 */
export function readsItem<H extends Handler>(resource: Resource, handler: H, toOneOnly = false): H & CheckedHandler {
  return Object.assign(handler, { itemModel: resource.model, itemRelated: (models: Models) => relatedWanted(resource, models, toOneOnly) });
}

export function resourceHandlers(resource: Resource) {
  const model = (ctx: RequestContext) => resource.model(ctx.models);
  const collectionPath = (ctx: RequestContext) => `${ctx.base}/${resource.collection}`;

  const list: Handler = (ctx) => listing(resource, ctx, undefined, collectionPath(ctx), [], false);

  const get = readsItem(resource, async (ctx: RequestContext) => {
    const row = await findVisible(resource, ctx, ctx.params.id);
    if (notModified(ctx, row)) return { status: 304, headers: validatorHeaders(row) };
    return hal(await renderOne(resource, row, ctx), 200, validatorHeaders(row));
  });

  /** `/tenant`, `/user`: the caller's own item, read fresh and answered exactly like GET of its id. */
  const current = (uidOf: (ctx: RequestContext) => string): Handler => (ctx) => get({ ...ctx, params: { ...ctx.params, id: uidOf(ctx) } });

  const mayCreate = async (ctx: RequestContext) => {
    if (!(await resource.policy.canCreate(ctx))) throw new ForbiddenError(`You may not create ${resource.collection}`);
  };

  const create: CheckedHandler = withPrecheck(async (ctx) => {
    await mayCreate(ctx);
    const { row, related } = await mutate(ctx, async (transaction) => {
      const written = await createWithin(resource, ctx, transaction);
      return { result: written, audit: written.audit };
    });
    const body = { ...(await renderOne(resource, row, ctx, undefined, related)), ...(resource.reveal?.(ctx, row) ?? {}) };
    return hal(body, 201, { Location: selfHref(resource, row, ctx), ...validatorHeaders(row) });
  }, mayCreate);

  /** Target 404 → 403 → 412, in docs/contract.md §2's order. */
  const editable = async (ctx: RequestContext) => {
    const row = await findVisible(resource, ctx, ctx.params.id);
    if (!(await resource.policy.canEdit(ctx, row))) throw new ForbiddenError(`You may not edit this ${resource.itemRel}`);
    checkIfMatch(ctx, row);
    return row;
  };

  // The row an update or delete names is read with the caller, as a GET's is, and so are its to-one targets.
  const update = (mode: Exclude<Mode, 'create'>): Handler => readsItem(resource, withPrecheck(async (ctx) => {
    const row = await editable(ctx);
    const { row: saved, related } = await mutate(ctx, async (transaction) => {
      const written = await updateWithin(resource, ctx, mode, row, transaction);
      return { result: written, audit: written.audit };
    });
    return hal(await renderOne(resource, saved, ctx, undefined, related), 200, validatorHeaders(saved));
  }, editable), true);

  const remove: Handler = readsItem(resource, async (ctx: RequestContext) => {
    const row = await findVisible(resource, ctx, ctx.params.id);
    if (!(await resource.policy.canDelete(ctx, row))) throw new ForbiddenError(`You may not delete this ${resource.itemRel}`);
    checkIfMatch(ctx, row);
    await mutate(ctx, async (transaction) => {
      const blocker = resource.blockers ? await resource.blockers(ctx, row, transaction) : null;
      if (blocker) throw new UnprocessableError(blocker);
      const before = resource.extraAudit ? (await snapshot(resource, row, ctx, transaction)).values : undefined;
      await ctx.models.data.destroy(row, transaction);
      return {
        result: undefined,
        audit: [
          await auditEntry(resource, 'DELETED', row, ctx, null, transaction),
          ...(resource.extraAudit ? resource.extraAudit({ ctx, row, transaction, before }) : []),
        ],
      };
    });
    return noContent();
  }, true);

  const searchIndex: Handler = (ctx) => {
    const links: Record<string, unknown> = {};
    for (const s of resource.searches) {
      // Single searches too: Spring Data REST templates every search alike, and clients expand it blindly.
      const params = [...s.params.map((p) => p.name), 'page', 'size', 'sort'].join(',');
      links[s.name] = link(`${collectionPath(ctx)}/search/${s.name}{?${params}}`, true);
    }
    links.self = link(`${collectionPath(ctx)}/search`);
    return hal({ _links: links });
  };

  const search = (name: string): Handler => {
    const def = resource.searches.find((s) => s.name === name);
    if (!def) throw new Error(`${resource.collection} has no search ${name}`);
    return async (ctx) => {
      const args = await searchArgs(def, ctx);
      const where = await def.where(args, ctx);
      if (def.single) {
        const row = await findOneWhere(resource, ctx, where);
        if (!row) throw new NotFoundError(`No ${resource.itemRel} matches ${def.name}`);
        return hal(await renderOne(resource, row, ctx), 200, validatorHeaders(row));
      }
      const extra = def.params.filter((p) => ctx.rawQuery[p.name] !== undefined)
        .map((p) => [p.name, String(ctx.rawQuery[p.name])] as [string, string]);
      return listing(resource, ctx, where, `${collectionPath(ctx)}/search/${def.name}`, extra, true, def.render);
    };
  };

  return { list, get, current, create, replace: update('replace'), patch: update('patch'), remove, searchIndex, search, model };
}

async function searchArgs(def: SearchDef, ctx: RequestContext): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = {};
  for (const p of def.params) {
    if (p.many) {
      const given = ([] as string[]).concat(ctx.rawQuery[p.name] ?? []);
      const values = given.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
      if (values.length > 0) args[p.name] = values;
      else if (p.required) throw new BadRequestError([`${p.name}: is required`], [{ field: p.name, message: 'is required' }]);
      continue;
    }
    const raw = ctx.query[p.name] ?? ctx.rawQuery[p.name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value === '') {
      if (p.required) throw new BadRequestError([`${p.name}: is required`], [{ field: p.name, message: 'is required' }]);
      continue;
    }
    args[p.name] = p.ref ? await resolveQueryRef(p.ref(), ctx, value) : value;
  }
  return args;
}

/** Write-only fields (passwords, secrets) the request set: audited as changed, their values never shown. */
function writeOnlyChanges(resource: Resource, ctx: RequestContext): Record<string, { old: string; new: string }> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const given = resource.fields.filter((f) => f.writeOnly && !f.readOnly && body[f.name] !== undefined);
  return Object.fromEntries(given.map((f) => [f.name, { old: '***', new: '***' }]));
}
