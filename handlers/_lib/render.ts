/** Rows → HAL items, summaries and collections (docs/contract.md §3.2, §3.3, §3.6). */
import { primeParentRows } from '../../auth/parent-rows';
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { commonFields, itemHref, link, type Link } from '../../core/hal';
import { pageInfo, pagingLinks, type PageRequest } from './paging';
import { attributeOf, type Resource } from './resource';
import { loadRelated, type Related } from './store';

/** Field values as the wire shows them (write-only fields left out), written into `out` (a new object unless given). */
export function wireFields(resource: Resource, row: Row, ctx: RequestContext, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const f of resource.fields) {
    if (f.writeOnly) continue;
    const stored = row.get(attributeOf(f));
    out[f.name] = f.output ? f.output(stored, row) : stored ?? null;
  }
  if (resource.computed) Object.assign(out, resource.computed(row, ctx));
  return out;
}

/** The wire fields and then the common fields (uid, timestamps, authors) of a row, in one object. */
function fieldsOf(resource: Resource, row: Row, ctx: RequestContext): Record<string, unknown> {
  return commonFields(row, wireFields(resource, row, ctx));
}

export function selfHref(resource: Resource, row: Row, ctx: RequestContext): string {
  return itemHref(ctx.base, resource.collection, row.uid);
}

/** Scalar fields, uid, common fields and `_links.self`: how a related resource appears in `_embedded`. */
export function summary(resource: Resource, row: Row, ctx: RequestContext): Record<string, unknown> {
  const body = fieldsOf(resource, row, ctx);
  body._links = { self: link(selfHref(resource, row, ctx)) };
  return body;
}

export interface Rights { edit: boolean; delete: boolean; actions?: Record<string, unknown> }

export async function rightsOf(resource: Resource, row: Row, ctx: RequestContext): Promise<Rights> {
  const { policy } = resource;
  const hidden = policy.hideDeleteLink?.(ctx, row) ?? false;
  const actions = policy.actionLinks ? await policy.actionLinks(ctx, row, selfHref(resource, row, ctx)) : undefined;
  return { edit: await policy.canEdit(ctx, row), delete: !hidden && (await policy.canDelete(ctx, row)), actions };
}

export function item(resource: Resource, row: Row, related: Related, rights: Rights, ctx: RequestContext): Record<string, unknown> {
  const self = selfHref(resource, row, ctx);
  const embedded: Record<string, unknown> = {};
  const links: Record<string, unknown> = { self: link(self), [resource.itemRel]: link(self) };
  const mine = related.get(row.uid);
  for (const assoc of resource.associations) {
    links[assoc.rel] = link(`${self}/${assoc.rel}`);
    const target = mine?.get(assoc.rel);
    if (assoc.many) embedded[assoc.rel] = ((target as Row[] | undefined) ?? []).map((t) => summary(assoc.target(), t, ctx));
    else if (target) embedded[assoc.rel] = summary(assoc.target(), target as Row, ctx);
  }
  if (rights.edit) links.edit = link(self);
  if (rights.delete) links.delete = link(self);
  Object.assign(links, resource.links ? resource.links(row, ctx, self, mine) : {}, rights.actions ?? {});
  const body = fieldsOf(resource, row, ctx);
  if (Object.keys(embedded).length > 0) body._embedded = embedded;
  body._links = links;
  return body;
}

export async function items(resource: Resource, rows: Row[], related: Related, ctx: RequestContext) {
  // The parents the page loaded answer the rights checks of its rows: no query per row for edit/delete links.
  primeParentRows(ctx, [...related.values()].flatMap((byRel) => [...byRel.values()].flatMap((t) => (Array.isArray(t) ? t : t ? [t] : []))));
  const bodies = await Promise.all(rows.map(async (r) => item(resource, r, related, await rightsOf(resource, r, ctx), ctx)));
  for (const assoc of resource.associations.filter((a) => a.inline && !a.many)) {
    const targets = [...new Map(rows.map((r) => related.get(r.uid)?.get(assoc.rel) as Row | null | undefined)
      .filter((t): t is Row => !!t).map((t) => [t.uid as string, t])).values()];
    const shown = new Map<string, Record<string, unknown>>();
    // Only what the inline shape keeps is embedded: the target's other associations are not read.
    const inner = await items(assoc.target(), targets, await loadRelated(assoc.target(), targets, ctx, undefined, undefined, new Set(assoc.inline!.embedded)), ctx);
    targets.forEach((t, i) => shown.set(t.uid, reduce(inner[i], assoc.inline!)));
    rows.forEach((r, i) => {
      const target = related.get(r.uid)?.get(assoc.rel) as Row | null | undefined;
      bodies[i] = { ...bodies[i], [assoc.rel]: target ? shown.get(target.uid) : null };
    });
  }
  await embedCustom(resource, rows, related, bodies, ctx);
  await inlineIntoSummaries(resource, rows, related, bodies, ctx);
  return bodies;
}

/** To-many associations with their own embedded shape (`embed`), rendered for the whole page at once. */
async function embedCustom(resource: Resource, rows: Row[], related: Related, bodies: Record<string, unknown>[], ctx: RequestContext) {
  for (const assoc of resource.associations.filter((a) => a.many && a.embed)) {
    const targetsOf = (r: Row) => (related.get(r.uid)?.get(assoc.rel) as Row[] | undefined) ?? [];
    const all = rows.flatMap(targetsOf);
    const shown = all.length === 0 ? [] : await assoc.embed!(all, ctx);
    const byUid = new Map(all.map((t, i) => [t.uid as string, shown[i]]));
    rows.forEach((r, i) => {
      const embedded = bodies[i]._embedded as Record<string, unknown> | undefined;
      if (embedded) embedded[assoc.rel] = targetsOf(r).map((t) => byUid.get(t.uid));
    });
  }
}

/** An embedded to-one summary carries its target's inline associations too (a version's `_embedded.schema.owners`). */
async function inlineIntoSummaries(resource: Resource, rows: Row[], related: Related, bodies: Record<string, unknown>[], ctx: RequestContext) {
  for (const assoc of resource.associations.filter((a) => !a.many && !a.inline)) {
    const inlined = assoc.target().associations.filter((a) => a.inline && !a.many).map((a) => a.rel);
    if (inlined.length === 0) continue;
    const targets = [...new Map(rows.map((r) => related.get(r.uid)?.get(assoc.rel) as Row | null | undefined)
      .filter((t): t is Row => !!t).map((t) => [t.uid as string, t])).values()];
    // Of the target's associations only those inlined into its summary are read.
    const full = await items(assoc.target(), targets, await loadRelated(assoc.target(), targets, ctx, undefined, undefined, new Set(inlined)), ctx);
    const byUid = new Map(targets.map((t, i) => [t.uid as string, full[i]]));
    rows.forEach((r, i) => {
      const target = related.get(r.uid)?.get(assoc.rel) as Row | null | undefined;
      const embedded = (bodies[i]._embedded as Record<string, Record<string, unknown>> | undefined)?.[assoc.rel];
      if (!target || !embedded) return;
      for (const rel of inlined) embedded[rel] = byUid.get(target.uid)?.[rel] ?? null;
    });
  }
}

/** An item reduced to its fields, the named `_embedded` entries and the named links. */
function reduce(body: Record<string, unknown>, keep: { fields?: string[]; embedded: string[]; links: string[]; id?: boolean }): Record<string, unknown> {
  const { _embedded, _links, ...fields } = body as { _embedded?: Record<string, unknown>; _links: Record<string, unknown> };
  const pick = (o: Record<string, unknown> | undefined, names: string[]) => Object.fromEntries(names.filter((n) => o?.[n] !== undefined).map((n) => [n, o![n]]));
  const out: Record<string, unknown> = { ...(keep.id ? { id: (fields as { uid?: unknown }).uid } : {}), ...(keep.fields ? pick(fields, keep.fields) : fields) };
  if (keep.embedded.length > 0) out._embedded = pick(_embedded, keep.embedded);
  if (keep.links.length > 0) out._links = pick(_links, keep.links);
  return out;
}

export interface CollectionOptions {
  path: string;
  extra: [string, string][];
  page: PageRequest;
  total: number;
  /** The total is a lower bound (see COUNT_WINDOW). */
  capped?: boolean;
  canCreate: boolean;
  /** Search results have no search/create links of their own. */
  isSearch?: boolean;
  /** The relation the items are embedded under; default the collection's. */
  rel?: string;
}

export function collection(resource: Resource, embeddedItems: Record<string, unknown>[], o: CollectionOptions, ctx: RequestContext) {
  const info = pageInfo(o.page, o.total);
  const links: Record<string, Link> = pagingLinks(o.path, o.extra, o.page, info, o.capped);
  if (!o.isSearch) {
    links.profile = link(`${ctx.base}/profile/${resource.collection}`);
    if (resource.searches.length > 0) links.search = link(`${ctx.base}/${resource.collection}/search`);
    if (o.canCreate) links.create = link(`${ctx.base}/${resource.collection}`);
  }
  return { _embedded: { [o.rel ?? resource.collection]: embeddedItems }, _links: links, page: info };
}

/** `Accept: application/x-spring-data-compact+json`: links only. */
export function compact(resource: Resource, rows: Row[], o: CollectionOptions, ctx: RequestContext) {
  const info = pageInfo(o.page, o.total);
  const links = rows.map((r) => ({ rel: resource.itemRel, href: selfHref(resource, r, ctx) }));
  const paging = pagingLinks(o.path, o.extra, o.page, info, o.capped);
  for (const [rel, l] of Object.entries(paging)) links.push({ rel, href: l.href });
  return { links, content: [], page: info };
}
