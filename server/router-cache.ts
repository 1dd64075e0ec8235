/**
 * openapi-backend's router rebuilds its operation list (a lodash chain over the whole document) and compiles one
 * RegExp per path template on every match, and a request is matched twice (our routing, then handleRequest): about
 * 0.8 ms of CPU per request with ~90 operations. The document never changes after init, so the list is built once
 * and matches are remembered per method and path (bounded, so ids in paths cannot grow it without limit).
 */
import type { OpenAPIBackend } from 'openapi-backend';

const MAX_REMEMBERED = 10_000;

export function cacheRouting(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  router.getOperations = () => operations;

  const match = router.matchOperation.bind(router);
  const remembered = new Map<string, ReturnType<typeof match>>();
  router.matchOperation = ((req: Parameters<typeof match>[0], strict?: boolean) => {
    const key = `${String(req.method).toLowerCase()} ${String(req.path).split('?')[0]}`;
    const known = remembered.get(key);
    if (known) return known;
    const found = match(req, strict as never);
    if (found) {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(key, found);
    }
    return found;
  }) as typeof router.matchOperation;
}
