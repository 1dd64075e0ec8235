/**
 * The server state the portal reads, as TanStack Query options: one place names each query's key and call, so a
 * page that changes something invalidates exactly what it changed.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, read } from './api';
import { countText } from './format';

export const PAGE_SIZE = 20;

export const currentUserQuery = () => queryOptions({
  queryKey: ['user'],
  queryFn: () => read(api.GET('/user')),
  staleTime: 300_000,
});

/** Pending requests the caller may decide: the header's count. */
export const awaitingCountQuery = () => queryOptions({
  queryKey: ['grants', 'awaiting', 'count'],
  queryFn: async () => {
    const found = await read(api.GET('/application_access_grants/search/findByAttributes', {
      params: { query: { statuses: ['Pending'], awaitingMyDecision: true, size: 1 } },
    }));
    return { total: found.page.totalElements, text: countText(found.page, found._links) };
  },
});

export type GrantFilter = 'awaiting' | 'mine';

export const grantsQuery = (filter: GrantFilter, page: number) => queryOptions({
  queryKey: ['grants', filter, page],
  queryFn: () => read(api.GET('/application_access_grants/search/findByAttributes', {
    params: {
      query: {
        statuses: ['Pending'], page, size: PAGE_SIZE, sort: ['created_at,desc'],
        ...(filter === 'awaiting' ? { awaitingMyDecision: true } : { myApplications: true }),
      },
    },
  })),
  placeholderData: keepPreviousData,
});

export const myStreamsQuery = (page: number) => queryOptions({
  queryKey: ['streams', 'mine', page],
  queryFn: () => read(api.GET('/streams/search/findMine', { params: { query: { page, size: PAGE_SIZE, sort: ['name,asc'] } } })),
  placeholderData: keepPreviousData,
});

export const myApplicationsQuery = (page: number, size = PAGE_SIZE) => queryOptions({
  queryKey: ['applications', 'mine', page, size],
  queryFn: () => read(api.GET('/applications/search/findMine', { params: { query: { page, size, sort: ['name,asc'] } } })),
  placeholderData: keepPreviousData,
});

export const streamQuery = (uid: string) => queryOptions({
  queryKey: ['streams', 'item', uid],
  queryFn: () => read(api.GET('/streams/{id}', { params: { path: { id: uid } } })),
});

/** A stream's configs, one per environment the person may see (the environments tab). */
export const streamConfigsQuery = (uid: string) => queryOptions({
  queryKey: ['stream_configs', 'byStream', uid],
  queryFn: () => read(api.GET('/stream_configs/search/findByStream', { params: { query: { stream: uid, size: 100 } } })),
});

export const streamGraphQuery = (uid: string) => queryOptions({
  queryKey: ['graph', 'stream', uid],
  queryFn: () => read(api.GET('/streams/{id}/graph', { params: { path: { id: uid } } })),
});

/** The stream's open access (Pending and Approved) in every environment, newest first: one read for the whole tab. */
export const streamAccessQuery = (uid: string) => queryOptions({
  queryKey: ['grants', 'stream', uid],
  queryFn: () => read(api.GET('/application_access_grants/search/findByAttributes', {
    params: { query: { streamId: uid, statuses: ['Pending', 'Approved'], size: 200, sort: ['created_at,desc'] } },
  })),
});
