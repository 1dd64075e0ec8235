/** `/{collection}/{id}/{rel}[/{propertyId}]` for every association of a resource (docs/contract.md §3.5). */
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { BadRequestError, ForbiddenError, MethodNotAllowedError, NotFoundError, UnprocessableError } from '../../core/errors';
import { checkIfMatch } from './etag';
import { link } from '../../core/hal';
import { diff } from './input';
import { mutate } from './mutation';
import { accepts, hal, noContent, URI_LIST, type Handler } from './reply';
import { items, selfHref } from './render';
import { isNone, uidOf } from './references';
import { updateEntries, type AssociationDef, type Resource } from './resource';
import { findVisible, loadRelated, resolveBodyRef, setLinks } from './store';
import { renderOne } from './crud';

function associationOf(resource: Resource, rel: string): AssociationDef {
  const assoc = resource.associations.find((a) => a.rel === rel);
  if (!assoc) throw new NotFoundError(`${resource.itemRel} has no association ${rel}`);
  return assoc;
}

/** Link targets from text/uri-list, compact JSON, a URI string, an array of URIs or `{href}`. */
export function targetsOf(body: unknown): string[] {
  if (body === undefined || body === null) return [];
  if (typeof body === 'string') return [body];
  if (Array.isArray(body)) return body.map((b) => (typeof b === 'string' ? b : String((b as { href?: unknown })?.href ?? '')));
  if (typeof body === 'object') {
    const o = body as { href?: unknown; links?: unknown; _links?: unknown };
    if (Array.isArray(o.links)) return targetsOf(o.links);
    if (typeof o.href === 'string') return [o.href];
  }
  throw new BadRequestError(['body: must be a URI, a list of URIs or {"links":[{"href":…}]}']);
}

async function current(resource: Resource, row: Row, assoc: AssociationDef, ctx: RequestContext): Promise<Row[]> {
  const t = (await loadRelated(resource, [row], ctx)).get(row.uid)?.get(assoc.rel);
  return assoc.many ? (t as Row[]) : t ? [t as Row] : [];
}

export function associationHandlers(resource: Resource) {
  const load = async (ctx: RequestContext) => {
    const row = await findVisible(resource, ctx, ctx.params.id);
    return { row, assoc: associationOf(resource, ctx.params.rel) };
  };

  const editable = async (ctx: RequestContext, row: Row) => {
    if (!(await resource.policy.canEdit(ctx, row))) throw new ForbiddenError(`You may not edit this ${resource.itemRel}`);
    checkIfMatch(ctx, row);
  };

  /** Stores the new target list of one association and audits it as UPDATED. */
  const save = async (ctx: RequestContext, row: Row, assoc: AssociationDef, before: Row[], targets: string[]) => {
    // Kept on the targets (an access's grants): the resource's own handlers write it, if anything does.
    if (assoc.reverse) throw new MethodNotAllowedError(['GET', 'HEAD'], ctx.method);
    const old = before.map((r) => r.uid);
    if (assoc.immutable && JSON.stringify(old) !== JSON.stringify(targets)) throw new UnprocessableError(`${assoc.rel}: cannot be changed`);
    if (!assoc.many && assoc.required && targets.length === 0) throw new UnprocessableError(`${assoc.rel}: is required and cannot be removed`);
    // The same domain rules as a body write (e.g. who may hand an environment to another owners group).
    if (!assoc.many && resource.check) await resource.check(ctx, { [assoc.attribute!]: targets[0] ?? null }, row);
    await mutate(ctx, async (transaction) => {
      if (assoc.many) await setLinks(ctx, assoc, row.uid, targets, transaction);
      else { row.set({ [assoc.attribute!]: targets[0] ?? null, modifiedBy: ctx.principal.email }); await row.save({ transaction }); }
      if (assoc.many) { row.set({ modifiedBy: ctx.principal.email }); row.changed('modifiedAt', true); await row.save({ transaction }); }
      const [b, a] = assoc.many ? [{ [assoc.rel]: old }, { [assoc.rel]: [...new Set(targets)] }] : [{ [assoc.rel]: old[0] ?? null }, { [assoc.rel]: targets[0] ?? null }];
      const changes = diff(b, a);
      const audit = Object.keys(changes).length === 0 ? [] : [
        ...(await updateEntries(resource, row, ctx, changes, transaction)),
        ...(resource.extraAudit ? resource.extraAudit({ ctx, row, transaction, before: b, after: a }) : []),
      ];
      return { result: undefined, audit };
    });
  };

  const resolveAll = async (ctx: RequestContext, assoc: AssociationDef) => {
    const refs = targetsOf(ctx.body).filter((r) => !isNone(r));
    const uids: string[] = [];
    for (const [i, ref] of refs.entries()) uids.push((await resolveBodyRef(assoc.target(), ctx, assoc.many ? `${assoc.rel}[${i}]` : assoc.rel, ref)).uid);
    return uids;
  };

  const get: Handler = async (ctx) => {
    const { row, assoc } = await load(ctx);
    const targets = await current(resource, row, assoc, ctx);
    const target = assoc.target();
    if (accepts(ctx, URI_LIST)) {
      if (!assoc.many && targets.length === 0) throw new NotFoundError(`${assoc.rel} is not set`);
      return { status: 200, body: targets.map((t) => selfHref(target, t, ctx)).join('\n'), contentType: URI_LIST };
    }
    if (!assoc.many) {
      if (targets.length === 0) throw new NotFoundError(`${assoc.rel} is not set`);
      return hal(await renderOne(target, targets[0], ctx));
    }
    const related = await loadRelated(target, targets, ctx);
    const self = `${selfHref(resource, row, ctx)}/${assoc.rel}`;
    return hal({ _embedded: { [target.collection]: await items(target, targets, related, ctx) }, _links: { self: link(self) } });
  };

  /** PUT: replace (to-one takes exactly one URI). */
  const put: Handler = async (ctx) => {
    const { row, assoc } = await load(ctx);
    await editable(ctx, row);
    const uids = await resolveAll(ctx, assoc);
    if (!assoc.many && uids.length !== 1) throw new BadRequestError([`${assoc.rel}: exactly one URI is required for a to-one association`]);
    await save(ctx, row, assoc, await current(resource, row, assoc, ctx), uids);
    return noContent();
  };

  /** POST and PATCH: append to a to-many association; PATCH of a to-one sets it. */
  const append = (method: 'POST' | 'PATCH'): Handler => async (ctx) => {
    const { row, assoc } = await load(ctx);
    if (!assoc.many && method === 'POST') throw new MethodNotAllowedError(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'], method);
    await editable(ctx, row);
    const uids = await resolveAll(ctx, assoc);
    if (!assoc.many && uids.length !== 1) throw new BadRequestError([`${assoc.rel}: exactly one URI is required for a to-one association`]);
    const before = await current(resource, row, assoc, ctx);
    await save(ctx, row, assoc, before, assoc.many ? [...before.map((r) => r.uid), ...uids] : uids);
    return noContent();
  };

  const remove: Handler = async (ctx) => {
    const { row, assoc } = await load(ctx);
    if (assoc.many) throw new MethodNotAllowedError(['GET', 'HEAD', 'PUT', 'POST', 'PATCH'], 'DELETE');
    await editable(ctx, row);
    if (assoc.required) throw new UnprocessableError(`${assoc.rel}: is required and cannot be removed`);
    await save(ctx, row, assoc, await current(resource, row, assoc, ctx), []);
    return noContent();
  };

  const member = async (ctx: RequestContext) => {
    const { row, assoc } = await load(ctx);
    const uid = uidOf(ctx.params.propertyId);
    const targets = await current(resource, row, assoc, ctx);
    const hit = targets.find((t) => t.uid === uid);
    if (!hit) throw new NotFoundError(`${ctx.params.propertyId} is not linked as ${assoc.rel}`);
    return { row, assoc, targets, hit };
  };

  const getMember: Handler = async (ctx) => {
    const { assoc, hit } = await member(ctx);
    return hal(await renderOne(assoc.target(), hit, ctx));
  };

  const removeMember: Handler = async (ctx) => {
    const { row, assoc, targets, hit } = await member(ctx);
    await editable(ctx, row);
    await save(ctx, row, assoc, targets, targets.filter((t) => t.uid !== hit.uid).map((t) => t.uid));
    return noContent();
  };

  return { get, put, post: append('POST'), patch: append('PATCH'), remove, getMember, removeMember };
}

