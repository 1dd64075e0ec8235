/** The catalogs: streams, applications, schemas and environments, each over its collection and its name search. */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { api, read } from '../api';
import { Catalog } from '../components/Catalog';
import type { CatalogSearch } from '../components/catalog-search';
import { when } from '../format';
import { PAGE_SIZE } from '../queries';

interface Paging { page: number; size: number; sort: string[] }
type Call<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/**
 * A catalog's page of rows: the whole collection, or its name search when the URL has `q`; the previous page stays
 * on screen while the next one loads. The route's loader asks for it as the page opens (../router). Without a name
 * search (the admin's lists) the whole collection.
 */
export function catalogQuery<T>(kind: string, search: CatalogSearch, all: (query: Paging) => Call<T>, named?: (query: Paging & { name: string }) => Call<T>) {
  const paging = { page: search.page, size: PAGE_SIZE, sort: [search.sort] };
  return queryOptions({
    queryKey: [kind, 'catalog', search],
    queryFn: () => read(search.q && named ? named({ ...paging, name: search.q }) : all(paging)),
    placeholderData: keepPreviousData,
  });
}

export const streamsCatalogQuery = (search: CatalogSearch) => catalogQuery('streams', search,
  (query) => api.GET('/streams', { params: { query } }),
  (query) => api.GET('/streams/search/findByNameContaining', { params: { query } }));

export const applicationsCatalogQuery = (search: CatalogSearch) => catalogQuery('applications', search,
  (query) => api.GET('/applications', { params: { query } }),
  (query) => api.GET('/applications/search/findByNameContaining', { params: { query } }));

export const schemasCatalogQuery = (search: CatalogSearch) => catalogQuery('schemas', search,
  (query) => api.GET('/schemas', { params: { query } }),
  (query) => api.GET('/schemas/search/findByNameContaining', { params: { query } }));

export const environmentsCatalogQuery = (search: CatalogSearch) => catalogQuery('environments', search,
  (query) => api.GET('/environments', { params: { query } }),
  (query) => api.GET('/environments/search/findByNameContaining', { params: { query } }));

export function StreamsCatalog() {
  const search = useSearch({ from: '/streams' });
  const navigate = useNavigate({ from: '/streams' });
  const result = useQuery(streamsCatalogQuery(search));
  return (
    <Catalog<Schemas['Stream']> title="Streams" noun="streams" search={search} result={result} rows={result.data?._embedded.streams}
      actions={<Link className="button" to="/edit/$kind/$uid" params={{ kind: 'streams', uid: 'new' }}>New stream</Link>}
      onSearch={(change) => void navigate({ search: (s) => ({ ...s, ...change }) })}
      columns={[
        { label: 'Name', sortField: 'name', cell: (s) => <Link to="/streams/$uid" params={{ uid: s.uid }}>{s.name}</Link> },
        { label: 'Description', cell: (s) => s.description },
        { label: 'Key / value', cell: (s) => `${s.keyType} / ${s.valueType}` },
        { label: 'Created', sortField: 'created_at', cell: (s) => when(s.created_at) },
      ]} />
  );
}

export function ApplicationsCatalog() {
  const search = useSearch({ from: '/applications' });
  const navigate = useNavigate({ from: '/applications' });
  const result = useQuery(applicationsCatalogQuery(search));
  return (
    <Catalog<Schemas['Application']> title="Applications" noun="applications" search={search} result={result} rows={result.data?._embedded.applications}
      actions={<Link className="button" to="/edit/$kind/$uid" params={{ kind: 'applications', uid: 'new' }}>New application</Link>}
      onSearch={(change) => void navigate({ search: (s) => ({ ...s, ...change }) })}
      columns={[
        { label: 'Name', sortField: 'name', cell: (a) => <Link to="/applications/$uid" params={{ uid: a.uid }}>{a.name}</Link> },
        { label: 'Short name', sortField: 'shortName', cell: (a) => a.shortName },
        { label: 'Kind', cell: (a) => `${a.applicationType}${a.type ? `, ${a.type}` : ''}` },
        { label: 'Owners', cell: (a) => a.owners?.name ?? '' },
      ]} />
  );
}

export function SchemasCatalog() {
  const search = useSearch({ from: '/schemas' });
  const navigate = useNavigate({ from: '/schemas' });
  const result = useQuery(schemasCatalogQuery(search));
  return (
    <Catalog<Schemas['Schema']> title="Schemas" noun="schemas" search={search} result={result} rows={result.data?._embedded.schemas}
      actions={<Link className="button" to="/schemas/upload">Upload a schema</Link>}
      onSearch={(change) => void navigate({ search: (s) => ({ ...s, ...change }) })}
      columns={[
        { label: 'Name', sortField: 'name', cell: (s) => <Link to="/schemas/$uid" params={{ uid: s.uid }}>{s.name}</Link> },
        { label: 'Type', cell: (s) => s.type },
        { label: 'Description', cell: (s) => s.description },
        { label: 'Created', sortField: 'created_at', cell: (s) => when(s.created_at) },
      ]} />
  );
}

export function EnvironmentsCatalog() {
  const search = useSearch({ from: '/environments' });
  const navigate = useNavigate({ from: '/environments' });
  const result = useQuery(environmentsCatalogQuery(search));
  return (
    <Catalog<Schemas['Environment']> title="Environments" noun="environments" search={search} result={result} rows={result.data?._embedded.environments}
      actions={<Link className="button" to="/edit/$kind/$uid" params={{ kind: 'environments', uid: 'new' }}>New environment</Link>}
      onSearch={(change) => void navigate({ search: (s) => ({ ...s, ...change }) })}
      columns={[
        { label: 'Name', sortField: 'name', cell: (e) => <Link to="/edit/$kind/$uid" params={{ kind: 'environments', uid: e.uid }}>{e.name}</Link> },
        { label: 'Short name', sortField: 'shortName', cell: (e) => e.shortName },
        { label: 'Approval', cell: (e) => (e.autoApproved ? 'Automatic' : 'By the stream\'s owners') },
        { label: 'Longest access', cell: (e) => e.maxAccessDuration ?? 'No limit' },
      ]} />
  );
}
