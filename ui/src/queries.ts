/**
 * The server state the portal reads, as TanStack Query options: one place names each query's key and call, so a
 * page that changes something invalidates exactly what it changed.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, read } from './api';

export const PAGE_SIZE = 20;

export const currentUserQuery = () => queryOptions({
  queryKey: ['user'],
  queryFn: () => read(api.GET('/user')),
  staleTime: 300_000,
});

/** Pending requests the caller may decide: the header's count. */
export const awaitingCountQuery = () => queryOptions({
  queryKey: ['grants', 'awaiting', 'count'],
  queryFn: async () => (await read(api.GET('/application_access_grants/search/findByAttributes', {
    params: { query: { statuses: ['Pending'], awaitingMyDecision: true, size: 1 } },
  }))).page.totalElements,
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
