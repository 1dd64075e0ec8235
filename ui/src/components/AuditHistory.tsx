/** What happened to a resource, newest first, a page at a time: when, who, what, and the details the entry keeps. */
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, read } from '../api';
import { when } from '../format';
import { PAGE_SIZE } from '../queries';
import { Pager } from './Pager';
import { Empty, Failed, Loading } from './states';

function describeDetails(details: Record<string, unknown> | null | undefined): string {
  if (!details) return '';
  return Object.entries(details).map(([k, v]) => {
    if (v && typeof v === 'object' && 'old' in v && 'new' in v) return `${k}: ${JSON.stringify((v as { old: unknown }).old)} → ${JSON.stringify((v as { new: unknown }).new)}`;
    return `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`;
  }).join('; ');
}

export function AuditHistory({ resourceId }: { resourceId: string }) {
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ['audit', resourceId, page],
    queryFn: () => read(api.GET('/audit-history', { params: { query: { resourceId, page, size: PAGE_SIZE, sort: 'timestamp,desc' } } })),
    placeholderData: keepPreviousData,
  });
  if (q.isPending) return <Loading what="the history" />;
  if (q.isError) return <Failed error={q.error} retry={() => void q.refetch()} />;
  const events = q.data._embedded.events;
  if (events.length === 0) return <Empty>No history recorded.</Empty>;
  return (
    <>
      <table className="list">
        <caption className="visually-hidden">History</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Details</th></tr></thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.uid}>
              <td>{when(e.timestamp)}</td>
              <td>{e.actorName ?? e.actor}</td>
              <td>{e.action}</td>
              <td className="details">{describeDetails(e.details as Record<string, unknown> | null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={q.data.page} label="History" onPage={setPage} />
    </>
  );
}
