/**
 * The targets of a row just written, known without reading them again: the rows the body's references resolved
 * to (readInput, in the same transaction) and, for what the body left alone, the targets the row had before. The
 * audit's "after" and the reply are made from them; only what is known neither way is read.
 */
import type { Transaction } from 'sequelize';
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import type { Input } from './input';
import type { AssociationDef, Resource } from './resource';
import { loadAssociation, type Related } from './store';

/** The targets of `assoc` of the written row, or undefined when they must be read. */
function knownTargets(assoc: AssociationDef, row: Row, input: Input, before: Map<string, Row | Row[] | null> | undefined): Row | Row[] | null | undefined {
  const earlier = before?.get(assoc.rel);
  const known = (uid: string) => input.targets.get(uid) ?? (Array.isArray(earlier) ? earlier.find((t) => t.uid === uid) : earlier?.uid === uid ? earlier : undefined);
  if (assoc.reverse) return earlier;
  if (!assoc.many) {
    const uid = row.get(assoc.attribute!) as string | null;
    return uid === null || uid === undefined ? null : known(uid);
  }
  const given = input.links.get(assoc);
  if (!given) return earlier;
  // As setLinks stores them: each target once, in the order given.
  const rows = [...new Set(given)].map(known);
  return rows.every((t): t is Row => t !== undefined) ? rows : undefined;
}

/** Every association's targets of `row` after a create or update from `input`; `before`: the row's targets before an update. */
export async function writtenRelated(resource: Resource, row: Row, input: Input, ctx: RequestContext, transaction: Transaction, before?: Related): Promise<Related> {
  const related: Related = new Map([[row.uid as string, new Map()]]);
  const mine = related.get(row.uid)!;
  const earlier = before?.get(row.uid);
  for (const assoc of resource.associations) {
    const targets = knownTargets(assoc, row, input, earlier);
    if (targets === undefined) await loadAssociation(assoc, [row], ctx, related, transaction);
    else mine.set(assoc.rel, targets);
  }
  return related;
}
