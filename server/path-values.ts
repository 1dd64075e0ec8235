/**
 * The document gives path values their exact form (a uid's `pattern`, an association's `rel` names), but a path
 * value of another form names nothing, and docs/contract.md §2 answers that with 404 in the order of its checks
 * (after the permission to see the collection, before the body), which the handlers already decide as they look the
 * value up. So the request validator gets a copy of the document whose path parameters keep their type and lengths
 * but not `pattern` or `enum`.
 */
type Doc = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

function lenient(parameter: Doc | undefined): void {
  if (parameter?.in !== 'path' || typeof parameter.schema !== 'object' || parameter.schema === null) return;
  const { pattern: _pattern, enum: _enum, ...rest } = parameter.schema;
  parameter.schema = rest;
}

/** Changes `document` in place (the caller's own copy) and returns it. */
export function withLenientPathValues<T extends Doc>(document: T): T {
  for (const parameter of Object.values<Doc>(document.components?.parameters ?? {})) lenient(parameter);
  for (const item of Object.values<Doc>(document.paths ?? {})) {
    for (const parameter of item.parameters ?? []) lenient(parameter);
    for (const method of METHODS) for (const parameter of item[method]?.parameters ?? []) lenient(parameter);
  }
  return document;
}
