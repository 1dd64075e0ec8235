/**
 * openapi-backend's router rebuilds its operation list (a lodash chain over the whole document) and compiles one
 * RegExp per path template on every match, and a request is matched twice (our routing, then handleRequest). The
 * document never changes after init, so the list, the exact paths and one pattern per template are built once;
 * matching is then the library's own rule over them: an exact path with the method, else the most specific
 * template (longest literal part, document order among equals) that has the method; none → 404, no method → 405.
 */
import type { OpenAPIBackend } from 'openapi-backend';

type Router = OpenAPIBackend['router'];
type Operation = ReturnType<Router['getOperations']>[number];
type Request = Parameters<Router['matchOperation']>[0];

export function cacheRouting(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  router.getOperations = () => operations;

  const exact = new Map<string, Operation>();
  for (const op of operations) if (!exact.has(`${op.method} ${op.path}`)) exact.set(`${op.method} ${op.path}`, op);
  const templates = operations
    .map((op, index) => ({ op, index, pattern: patternOf(op.path), specificity: op.path.replace(/\{.*?\}/g, '').length, first: firstSegment(op.path) }))
    .sort((a, b) => b.specificity - a.specificity || a.index - b.index);
  // Per literal first segment, the templates that can match a path starting with it (in the order above): a path
  // is tested against its own resource's templates, not all of them.
  const anyFirst = templates.filter((t) => t.first === undefined);
  const byFirst = new Map<string, typeof templates>();
  for (const t of templates) {
    if (t.first !== undefined && !byFirst.has(t.first)) byFirst.set(t.first, templates.filter((u) => u.first === undefined || u.first === t.first));
  }

  router.matchOperation = ((incoming: Request, strict?: boolean) => {
    const req = router.normalizeRequest(incoming);
    // A private method of the library's router: the same boundary rule (`/api` and `/api/…`, not `/apix`).
    if (!(router as unknown as { isUnderApiRoot: (p: string) => boolean }).isUnderApiRoot(req.path)) return refuse(strict, '404-notFound: no route matches request');
    const path = router.normalizePath(req.path);
    const hit = exact.get(`${req.method} ${path}`);
    if (hit) return hit;
    let anyPath = false;
    for (const t of byFirst.get(path.split('/', 2)[1] ?? '') ?? anyFirst) {
      if (!t.pattern.test(path)) continue;
      anyPath = true;
      if (t.op.method === req.method) return t.op;
    }
    return refuse(strict, anyPath ? '405-methodNotAllowed: this method is not registered for the route' : '404-notFound: no route matches request');
  }) as Router['matchOperation'];
}

function refuse(strict: boolean | undefined, message: string): undefined {
  if (strict) throw new Error(message);
  return undefined;
}

/** `/clusters/{id}` → `clusters`; undefined when the first segment is a parameter. */
function firstSegment(path: string): string | undefined {
  const first = path.split('/', 2)[1] ?? '';
  return first.includes('{') ? undefined : first;
}

/** The library's template → pattern: `{x}` matches one segment, the literal parts match themselves. */
function patternOf(path: string): RegExp {
  const literal = path.replace(/\{[^}]+\}/g, '\0').split('\0').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('[^/]+')}$`);
}
