/**
 * `oneOf`/`anyOf`/`allOf` (explicit, from a list of types, or implied by mixed keywords) in the JSON_SCHEMA
 * judgement, as Confluent judges them. A sum type (`anyOf`/`oneOf`) may gain branches but not lose them; a product
 * type (`allOf`) may lose parts but not gain them; every branch on the smaller side must be matched, one to one, with a
 * compatible branch on the other (a maximum bipartite matching). A plain schema becoming a union is fine if one
 * branch reads it; an `allOf` becoming a plain schema is fine if one of its parts is read by it. Pure.
 */
import { finding, type Compare, type Finding } from './json-schema-findings';
import { canonicalJson, describeNode, type NodeOf, type SchemaNode } from './json-schema-nodes';

type CombinedNode = NodeOf<'combined'>;

/** True when a union on one side only is resolved by one of its branches (the caller then reports nothing). */
export function unionResolves(compare: Compare, writer: SchemaNode, reader: SchemaNode): boolean {
  const reads = (w: SchemaNode, r: SchemaNode) => compare(w, r).length === 0;
  if (writer.kind !== 'combined' && reader.kind === 'combined') {
    const branches = reader.branches.map((b) => reader.doc.node(b));
    if (branches.length === 1) return reads(writer, branches[0]!);
    return reader.criterion !== 'allOf' && branches.some((b) => reads(writer, b));
  }
  if (writer.kind === 'combined' && reader.kind !== 'combined') {
    const branches = writer.branches.map((b) => writer.doc.node(b));
    if (branches.length === 1) return reads(branches[0]!, reader);
    return writer.criterion === 'allOf' && branches.some((b) => reads(b, reader));
  }
  return false;
}

export function combinedFindings(compare: Compare, writer: CombinedNode, reader: CombinedNode): Finding[] {
  if (!criterionCompatible(writer, reader)) {
    return [finding('', 'COMBINED_TYPE_CHANGED', (s) => `${s} changed from ${writer.criterion} to ${reader.criterion}`)];
  }
  const [before, after] = [distinctBranches(writer), distinctBranches(reader)];
  const findings: Finding[] = [];
  if (before.length > after.length && writer.criterion !== 'allOf') {
    findings.push(finding('', 'SUM_TYPE_NARROWED', (s) => `${s} has fewer ${reader.criterion} branches (${before.length} → ${after.length})`));
  }
  if (before.length < after.length && reader.criterion === 'allOf') {
    findings.push(finding('', 'PRODUCT_TYPE_EXTENDED', (s) => `${s} has more allOf parts (${before.length} → ${after.length})`));
  }
  const readable = before.map((w) => after.map((r) => compare(w, r).length === 0));
  const matched = maximumMatching(readable);
  if (matched.size < Math.min(before.length, after.length)) {
    const unmatched = before.filter((_, i) => !matched.has(i));
    const branch = reader.origin === 'keyword' ? `${reader.criterion} branch` : reader.origin === 'type-list' ? 'type' : 'part';
    findings.push(finding('', 'COMBINED_TYPE_SUBSCHEMAS_CHANGED',
      (s) => `${s}: no ${branch} of the new schema reads ${unmatched.map((w) => describeNode(w)).join(', ')}`,
      closestReasons(compare, unmatched, after)));
  }
  return findings;
}

/** Why the first unmatched writer branch is not read by the reader branch of its own kind, when there is one. */
function closestReasons(compare: Compare, unmatched: SchemaNode[], readerBranches: SchemaNode[]): Finding[] {
  for (const writer of unmatched) {
    const counterpart = readerBranches.find((r) => r.kind === writer.kind);
    if (counterpart) return compare(writer, counterpart);
  }
  return [];
}

/**
 * The same criterion, any reader `anyOf`, or a change between one-branch forms that accept the same data
 * (Confluent's COMBINED_TYPE_EXTENDED); any other change of criterion is refused without comparing branches.
 */
function criterionCompatible(writer: CombinedNode, reader: CombinedNode): boolean {
  const single = (node: CombinedNode) => node.branches.length === 1;
  return writer.criterion === reader.criterion || reader.criterion === 'anyOf' || (single(writer) && single(reader))
    || (single(writer) && reader.criterion === 'oneOf') || (single(reader) && writer.criterion === 'allOf');
}

/** Branches written twice count once. */
function distinctBranches(node: CombinedNode): SchemaNode[] {
  const seen = new Map<string, SchemaNode>();
  for (const branch of node.branches) {
    const key = canonicalJson(branch);
    if (!seen.has(key)) seen.set(key, node.doc.node(branch));
  }
  return [...seen.values()];
}

/** Writer branch indexes matched by augmenting paths (Kuhn): `readable[w][r]` says reader branch r reads w. */
function maximumMatching(readable: boolean[][]): Set<number> {
  const writerOf = new Map<number, number>();
  const augment = (w: number, visited: Set<number>): boolean =>
    (readable[w] ?? []).some((ok, r) => {
      if (!ok || visited.has(r)) return false;
      visited.add(r);
      const holder = writerOf.get(r);
      if (holder !== undefined && !augment(holder, visited)) return false;
      writerOf.set(r, w);
      return true;
    });
  readable.forEach((_, w) => augment(w, new Set()));
  return new Set(writerOf.values());
}
