/** The portal's pages by path. Catalog pages keep their search, sort and page in the URL, so a link shares a view. */
import { createRootRouteWithContext, createRoute, createRouter } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { Shell } from './components/Shell';
import { NotFound } from './pages/NotFound';
import { MyWork } from './pages/MyWork';
import { StreamsCatalog } from './pages/StreamsCatalog';
import { StreamPage } from './pages/StreamPage';
import { catalogSearch } from './components/catalog-search';

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({ component: Shell, notFoundComponent: NotFound });

const myWorkRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: MyWork });

const streamsRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'streams', validateSearch: catalogSearch('name'), component: StreamsCatalog,
});

const streamRoute = createRoute({ getParentRoute: () => rootRoute, path: 'streams/$uid', component: StreamPage });

const routeTree = rootRoute.addChildren([myWorkRoute, streamsRoute, streamRoute]);

export const router = createRouter({ routeTree, context: { queryClient: undefined! }, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register { router: typeof router }
}
