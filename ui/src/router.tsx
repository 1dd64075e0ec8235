/** The portal's pages by path. Catalog pages keep their search, sort and page in the URL, so a link shares a view. */
import { createRootRouteWithContext, createRoute, createRouter } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { Shell } from './components/Shell';
import { NotFound } from './pages/NotFound';
import { MyWork } from './pages/MyWork';
import {
  ApplicationsCatalog, applicationsCatalogQuery, EnvironmentsCatalog, environmentsCatalogQuery, SchemasCatalog, schemasCatalogQuery,
  StreamsCatalog, streamsCatalogQuery,
} from './pages/catalogs';
import { StreamPage, STREAM_TABS, type StreamTab } from './pages/StreamPage';
import { ApplicationPage } from './pages/ApplicationPage';
import { EditPage } from './pages/EditPage';
import { SchemaPage } from './pages/SchemaPage';
import { SchemaUpload } from './pages/SchemaUpload';
import { Clusters, Groups, Instances, prefetchAdminList, Users, type AdminKind } from './pages/admin';
import { Notifications, prefetchNotifications } from './pages/Notifications';
import type { SearchSchemaInput } from '@tanstack/react-router';
import { catalogSearch } from './components/catalog-search';
import { awaitingCountQuery, currentUserQuery, grantsQuery, myApplicationsQuery, myStreamsQuery, streamAccessQuery, streamConfigsQuery, streamGraphQuery, streamQuery } from './queries';

/** A stream page's tab in its URL (`?tab=environments`), so a link opens the tab it names. */
function streamSearch(input: { tab?: string } & SearchSchemaInput): { tab?: StreamTab } {
  return STREAM_TABS.includes(input.tab as StreamTab) ? { tab: input.tab as StreamTab } : {};
}

/** The header's reads (who is signed in, the decisions waiting) start with the page's own, not after them. */
const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Shell,
  notFoundComponent: NotFound,
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(currentUserQuery());
    void queryClient.prefetchQuery(awaitingCountQuery());
  },
});

/** My work's four lists are asked for as the page opens, together with the header's reads. */
const myWorkRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/', component: MyWork,
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(grantsQuery('awaiting', 0));
    void queryClient.prefetchQuery(grantsQuery('mine', 0));
    void queryClient.prefetchQuery(myApplicationsQuery(0));
    void queryClient.prefetchQuery(myStreamsQuery(0));
  },
});

const streamsRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'streams', validateSearch: catalogSearch('name'), component: StreamsCatalog,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => void queryClient.prefetchQuery(streamsCatalogQuery(deps)),
});

const applicationsRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'applications', validateSearch: catalogSearch('name'), component: ApplicationsCatalog,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => void queryClient.prefetchQuery(applicationsCatalogQuery(deps)),
});

const schemasRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'schemas', validateSearch: catalogSearch('name'), component: SchemasCatalog,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => void queryClient.prefetchQuery(schemasCatalogQuery(deps)),
});

const environmentsRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'environments', validateSearch: catalogSearch('name'), component: EnvironmentsCatalog,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => void queryClient.prefetchQuery(environmentsCatalogQuery(deps)),
});

/**
 * Everything the stream's page shows first is asked for at once, as the page opens, rather than each part once the
 * part before it has arrived: one round trip to the API before the content.
 */
const streamRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'streams/$uid', validateSearch: streamSearch, component: StreamPage,
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  loader: ({ context: { queryClient }, params: { uid }, deps: { tab } }) => {
    void queryClient.prefetchQuery(streamQuery(uid));
    if (tab === 'environments') {
      void queryClient.prefetchQuery(streamConfigsQuery(uid));
      void queryClient.prefetchQuery(streamGraphQuery(uid));
      void queryClient.prefetchQuery(streamAccessQuery(uid));
    }
  },
});

const applicationRoute = createRoute({ getParentRoute: () => rootRoute, path: 'applications/$uid', component: ApplicationPage });

const schemaRoute = createRoute({ getParentRoute: () => rootRoute, path: 'schemas/$uid', component: SchemaPage });

/** `?schema=` names the schema a version is added to; without it, the upload may make a new schema. */
const schemaUploadRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'schemas/upload', component: SchemaUpload,
  validateSearch: (input: { schema?: string } & SearchSchemaInput): { schema?: string } =>
    (typeof input.schema === 'string' && /^[0-9a-fA-F-]{32,36}$/.test(input.schema) ? { schema: input.schema } : {}),
});

const editRoute = createRoute({ getParentRoute: () => rootRoute, path: 'edit/$kind/$uid', component: EditPage });

const adminRoute = <P extends string>(path: P, kind: AdminKind, sortField: string, component: () => React.ReactNode) =>
  createRoute({
    getParentRoute: () => rootRoute, path, validateSearch: catalogSearch(sortField), component,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) => prefetchAdminList(queryClient, kind, deps),
  });
const adminRoutes = [
  adminRoute('admin/users', 'users', 'lastName', Users), adminRoute('admin/groups', 'groups', 'name', Groups),
  adminRoute('admin/instances', 'instances', 'name', Instances), adminRoute('admin/clusters', 'clusters', 'name', Clusters),
] as const;

/** The notifications setting and the webhook endpoints (sorted and paged by the API, like the admin lists). */
const notificationsRoute = createRoute({
  getParentRoute: () => rootRoute, path: 'admin/notifications', validateSearch: catalogSearch('url'), component: Notifications,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => prefetchNotifications(queryClient, deps),
});

const routeTree = rootRoute.addChildren([
  myWorkRoute, streamsRoute, streamRoute, applicationsRoute, applicationRoute, schemasRoute, schemaRoute, schemaUploadRoute, environmentsRoute, editRoute, ...adminRoutes, notificationsRoute,
]);

export const router = createRouter({ routeTree, context: { queryClient: undefined! }, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register { router: typeof router }
}
