/**
 * The choices of a reference field (owners group, instance, clusters, successor, schema): the first 200 of the
 * collection by name, the same visibility as everywhere (the API decides what the person may see).
 */
import { queryOptions } from '@tanstack/react-query';
import { api, read } from '../api';

export interface Option { value: string; label: string }
export type OptionSource = 'groups' | 'instances' | 'clusters' | 'environments' | 'schemas' | 'supportTiers';

const PAGE = { page: 0, size: 200 } as const;

async function optionsOf(source: OptionSource): Promise<Option[]> {
  const named = (rows: { uid: string; name: string }[]) => rows.map((r) => ({ value: r.uid, label: r.name }));
  switch (source) {
    case 'groups': return named((await read(api.GET('/groups', { params: { query: { ...PAGE, sort: ['name,asc'] } } })))._embedded.groups);
    case 'instances': return named((await read(api.GET('/instances', { params: { query: { ...PAGE, sort: ['name,asc'] } } })))._embedded.instances);
    case 'clusters': return named((await read(api.GET('/clusters', { params: { query: { ...PAGE, sort: ['name,asc'] } } })))._embedded.clusters);
    case 'environments': return named((await read(api.GET('/environments', { params: { query: { ...PAGE, sort: ['name,asc'] } } })))._embedded.environments);
    case 'schemas': return (await read(api.GET('/schemas', { params: { query: { ...PAGE, sort: ['name,asc'] } } })))._embedded.schemas
      .map((s) => ({ value: s.uid, label: `${s.name} (${s.type})` }));
    case 'supportTiers': return named((await read(api.GET('/support_tiers', { params: { query: { ...PAGE, sort: ['name,asc'] } } })))._embedded.support_tiers);
  }
}

export const optionsQuery = (source: OptionSource) => queryOptions({
  queryKey: [source, 'options'],
  queryFn: () => optionsOf(source),
  staleTime: 30_000,
});

/** The versions of one schema, newest first: what a stream config may pin. */
export const schemaVersionOptionsQuery = (schemaUid: string) => queryOptions({
  queryKey: ['schema_versions', 'options', schemaUid],
  queryFn: async (): Promise<Option[]> => (await read(api.GET('/schema_versions/search/findAllBySchema', {
    params: { query: { schema: schemaUid, page: 0, size: 200, sort: ['created_at,desc'] } },
  })))._embedded.schema_versions.map((v) => ({ value: v.uid, label: v.version })),
});
