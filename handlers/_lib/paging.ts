/** Page, size and sort (docs/contract.md §3.3) and the paging links of a collection or search result. */
import type { Order } from '../../models/select-sql';
import { BadRequestError } from '../../core/errors';
import { link, type Link } from '../../core/hal';
import { attributeOf, isSortable, type Resource } from './resource';

export interface PageRequest { page: number; size: number; sort: { field: string; attribute: string; dir: 'ASC' | 'DESC' }[]; sortParams: string[] }

/**
 * How far past the end of the requested page a listing counts (`page.totalElements`), so that no page counts a
 * million rows. Within the window the total is exact; beyond it the total is a lower bound and `last` is left out.
 */
export const COUNT_WINDOW = 1000;

const COMMON_SORT: Record<string, string> = { created_at: 'createdAt', modified_at: 'modifiedAt', uid: 'uid' };

function intParam(raw: unknown, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  // Digits only: Number() would also take `1e3`, `0x10` or ` 5`, values the client did not write.
  const n = typeof raw === 'number' ? raw : /^-?\d{1,12}$/.test(String(raw)) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new BadRequestError([`${name}: must be an integer between ${min} and ${max}`], [{ field: name, message: `must be an integer between ${min} and ${max}`, rejectedValue: raw }]);
  }
  return n;
}

/** Without a prototype: `sort=__proto__` or `sort=constructor` must name no field. */
export function sortableAttributes(resource: Resource): Record<string, string> {
  const map: Record<string, string> = Object.assign(Object.create(null), COMMON_SORT);
  for (const f of resource.fields) if (isSortable(f)) map[f.name] = attributeOf(f);
  return map;
}

export function parsePage(query: Record<string, unknown>, sortable: Record<string, string>): PageRequest {
  const page = intParam(query.page, 'page', 0, 0, 1_000_000_000);
  const size = intParam(query.size, 'size', 20, 1, 10_000);
  const rawSort = query.sort === undefined ? [] : Array.isArray(query.sort) ? query.sort : [query.sort];
  const sort: PageRequest['sort'] = [];
  const sortParams: string[] = [];
  for (const entry of rawSort.map(String).filter((s) => s !== '')) {
    const [field, direction = 'asc', ...rest] = entry.split(',').map((s) => s.trim());
    const dir = direction.toLowerCase();
    if (!Object.hasOwn(sortable, field) || rest.length > 0 || (dir !== 'asc' && dir !== 'desc')) {
      const fields = Object.keys(sortable).join(', ');
      throw new BadRequestError([`sort: cannot sort by '${entry}'; use field[,asc|desc] with one of ${fields}`],
        [{ field: 'sort', message: `cannot sort by '${entry}'`, rejectedValue: entry }]);
    }
    sort.push({ field, attribute: sortable[field], dir: dir === 'desc' ? 'DESC' : 'ASC' });
    sortParams.push(`${field},${dir}`);
  }
  return { page, size, sort, sortParams };
}

/** ORDER BY: the requested fields, else created_at; uid last so equal keys keep a stable order across pages. */
export function orderOf(p: PageRequest): Order {
  const order: Order = p.sort.map((s) => [s.attribute, s.dir]);
  if (order.length === 0) order.push(['createdAt', 'ASC']);
  if (!order.some(([a]) => a === 'uid')) order.push(['uid', 'ASC']);
  return order;
}

export interface PageInfo { size: number; totalElements: number; totalPages: number; number: number }

export function pageInfo(p: PageRequest, total: number): PageInfo {
  return { size: p.size, totalElements: total, totalPages: Math.ceil(total / p.size), number: p.page };
}

/** `href` of the same listing at another page; extra holds the search parameters. */
function pageHref(path: string, extra: [string, string][], p: PageRequest, page: number): string {
  const params = new URLSearchParams(extra);
  params.append('page', String(page));
  params.append('size', String(p.size));
  for (const s of p.sortParams) params.append('sort', s);
  return `${path}?${params.toString().replace(/%2C/gi, ",")}`;
}

/** `capped`: the total is a lower bound (a bounded count), so no `last` claims to be the end; `next` still leads on. */
export function pagingLinks(path: string, extra: [string, string][], p: PageRequest, info: PageInfo, capped = false): Record<string, Link> {
  const links: Record<string, Link> = {};
  const hasPrev = info.number > 0;
  const hasNext = info.number < info.totalPages - 1;
  if (hasPrev || hasNext) links.first = link(pageHref(path, extra, p, 0));
  if (hasPrev) links.prev = link(pageHref(path, extra, p, Math.min(info.number - 1, Math.max(info.totalPages - 1, 0))));
  links.self = link(pageHref(path, extra, p, info.number));
  if (hasNext) links.next = link(pageHref(path, extra, p, info.number + 1));
  if ((hasPrev || hasNext) && !capped) links.last = link(pageHref(path, extra, p, Math.max(info.totalPages - 1, 0)));
  return links;
}
