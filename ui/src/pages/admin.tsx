/**
 * The tenant admin's lists: users, groups, instances and clusters, each sorted and paged by the API, each row
 * leading to its editor. (Environments have their own catalog, which everyone sees.)
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import { Catalog, type Column } from '../components/Catalog';
import type { CatalogSearch } from '../components/catalog-search';
import { catalogQuery } from './catalogs';

export const ADMIN_KINDS = ['users', 'groups', 'instances', 'clusters'] as const;
export type AdminKind = (typeof ADMIN_KINDS)[number];

/** The list's first read, started by its route's loader as the page opens. */
export function prefetchAdminList(queryClient: QueryClient, kind: AdminKind, search: CatalogSearch): void {
  switch (kind) {
    case 'users': void queryClient.prefetchQuery(usersCatalogQuery(search)); break;
    case 'groups': void queryClient.prefetchQuery(groupsCatalogQuery(search)); break;
    case 'instances': void queryClient.prefetchQuery(instancesCatalogQuery(search)); break;
    case 'clusters': void queryClient.prefetchQuery(clustersCatalogQuery(search)); break;
  }
}

const usersCatalogQuery = (search: CatalogSearch) => catalogQuery('users', search, (query) => api.GET('/users', { params: { query } }));
const groupsCatalogQuery = (search: CatalogSearch) => catalogQuery('groups', search, (query) => api.GET('/groups', { params: { query } }));
const instancesCatalogQuery = (search: CatalogSearch) => catalogQuery('instances', search, (query) => api.GET('/instances', { params: { query } }));
const clustersCatalogQuery = (search: CatalogSearch) => catalogQuery('clusters', search, (query) => api.GET('/clusters', { params: { query } }));

const editLink = (kind: AdminKind, uid: string, text: string) => <Link to="/edit/$kind/$uid" params={{ kind, uid }}>{text}</Link>;
const newLink = (kind: AdminKind, noun: string) => <Link className="button" to="/edit/$kind/$uid" params={{ kind, uid: 'new' }}>New {noun}</Link>;

function AdminCatalog<T extends { uid: string }>({ kind, title, noun, rows, columns, result, search }: {
  kind: AdminKind; title: string; noun: string; rows: T[] | undefined; columns: Column<T>[]; search: CatalogSearch;
  result: Parameters<typeof Catalog<T>>[0]['result'];
}) {
  const navigate = useNavigate();
  return (
    <Catalog<T> title={title} noun={`${noun}s`} search={search} result={result} rows={rows} searchable={false} actions={newLink(kind, noun)}
      onSearch={(change) => void navigate({ to: `/admin/${kind}`, search: { ...search, ...change } })} columns={columns} />
  );
}

export function Users() {
  const search = useSearch({ from: '/admin/users' });
  const result = useQuery(usersCatalogQuery(search));
  return (
    <AdminCatalog<Schemas['User']> search={search} kind="users" title="Users" noun="user" result={result} rows={result.data?._embedded.users} columns={[
      { label: 'Name', sortField: 'lastName', cell: (u) => editLink('users', u.uid, u.fullName) },
      { label: 'E-mail address', cell: (u) => u.emailAddress?.email },
      { label: 'Roles', cell: (u) => u.roles.map((r) => r.name).join(', ') },
    ]} />
  );
}

export function Groups() {
  const search = useSearch({ from: '/admin/groups' });
  const result = useQuery(groupsCatalogQuery(search));
  return (
    <AdminCatalog<Schemas['Group']> search={search} kind="groups" title="Groups" noun="group" result={result} rows={result.data?._embedded.groups} columns={[
      { label: 'Name', sortField: 'name', cell: (g) => editLink('groups', g.uid, g.name) },
      { label: 'E-mail address', cell: (g) => g.emailAddress?.email ?? '' },
      { label: 'Members', cell: (g) => String(g._embedded?.members?.length ?? 0) },
    ]} />
  );
}

export function Instances() {
  const search = useSearch({ from: '/admin/instances' });
  const result = useQuery(instancesCatalogQuery(search));
  return (
    <AdminCatalog<Schemas['Instance']> search={search} kind="instances" title="Instances" noun="instance" result={result} rows={result.data?._embedded.instances} columns={[
      { label: 'Name', sortField: 'name', cell: (i) => editLink('instances', i.uid, i.name) },
      { label: 'Short name', sortField: 'shortName', cell: (i) => i.shortName },
      { label: 'Clusters', cell: (i) => (i._embedded?.clusters ?? []).map((c) => c.name).join(', ') },
    ]} />
  );
}

export function Clusters() {
  const search = useSearch({ from: '/admin/clusters' });
  const result = useQuery(clustersCatalogQuery(search));
  return (
    <AdminCatalog<Schemas['Cluster']> search={search} kind="clusters" title="Clusters" noun="cluster" result={result} rows={result.data?._embedded.clusters} columns={[
      { label: 'Name', sortField: 'name', cell: (c) => editLink('clusters', c.uid, c.name) },
      { label: 'Provider', cell: (c) => c.providerType },
      { label: 'Bootstrap servers', cell: (c) => c.bootstrapServers.join(', ') },
    ]} />
  );
}
