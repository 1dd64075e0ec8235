/** The one YAML form of a document: block style, no anchors, no folding, key order as built, exact numbers. */
import yaml from 'js-yaml';
import { ExactNumber } from './exact-json';

// Listed as implicit so the writer prints a plain scalar with no tag; used for writing only (resolve never matches).
const exactNumber = new yaml.Type('tag:platform-management-service,2026:exact-number', {
  kind: 'scalar',
  instanceOf: ExactNumber,
  resolve: () => false,
  represent: (value) => (value as ExactNumber).text,
});
const SCHEMA = yaml.DEFAULT_SCHEMA.extend({ implicit: [exactNumber] });

export function toYaml(document: unknown): string {
  return yaml.dump(document, { schema: SCHEMA, noRefs: true, lineWidth: -1, sortKeys: false });
}
