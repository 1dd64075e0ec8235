/**
 * Where a signed-in person lands: the requests waiting for their decision, their own pending requests, their
 * applications and their streams, each a page of its own list.
 */
import { useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { GrantList } from '../components/GrantList';
import { Pager, type PageInfo } from '../components/Pager';
import { Empty, Failed, Loading } from '../components/states';
import { countText } from '../format';
import { grantsQuery, myApplicationsQuery, myStreamsQuery } from '../queries';

export function MyWork() {
  return (
    <>
      <h1>My work</h1>
      <Section id="grants-awaiting" title="Waiting for my decision" counted empty="Nothing waits for your decision." what="requests"
        query={(page) => grantsQuery('awaiting', page)} items={(d) => d._embedded.applicationAccessGrantResponses}
        render={(grants) => <GrantList grants={grants} />} />
      <Section id="grants-mine" title="My pending requests" counted empty="None of your applications waits for access." what="requests"
        query={(page) => grantsQuery('mine', page)} items={(d) => d._embedded.applicationAccessGrantResponses}
        render={(grants) => <GrantList grants={grants} />} />
      <Section id="my-applications" title="My applications" empty="No application is owned by a group of yours." what="applications"
        query={(page) => myApplicationsQuery(page)} items={(d) => d._embedded.applications}
        render={(apps) => (
          <ul className="cards">
            {apps.map((a) => <li key={a.uid}><Link to="/applications/$uid" params={{ uid: a.uid }}>{a.name}</Link> <span className="meta">{a.shortName}</span></li>)}
          </ul>
        )} />
      <Section id="my-streams" title="My streams" empty="No stream is owned by a group of yours." what="streams"
        query={myStreamsQuery} items={(d) => d._embedded.streams}
        render={(streams) => (
          <ul className="cards">
            {streams.map((s) => <li key={s.uid}><Link to="/streams/$uid" params={{ uid: s.uid }}>{s.name}</Link> <span className="meta">{s.description}</span></li>)}
          </ul>
        )} />
    </>
  );
}

interface SectionProps<D extends { page: PageInfo; _links?: Record<string, unknown> }, T, K extends QueryKey> {
  id: string;
  title: string;
  /** The title says how many there are in all. */
  counted?: boolean;
  empty: string;
  /** What is loading, in words. */
  what: string;
  query: (page: number) => UseQueryOptions<D, Error, D, K>;
  items: (data: D) => T[];
  render: (items: T[]) => ReactNode;
}

/** One list of My work, a page at a time, with its loading, empty and failed states. */
function Section<D extends { page: PageInfo; _links?: Record<string, unknown> }, T, K extends QueryKey>({ id, title, counted, empty, what, query, items, render }: SectionProps<D, T, K>) {
  const [page, setPage] = useState(0);
  const q = useQuery(query(page));
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}{counted && q.data ? ` (${countText(q.data.page, q.data._links)})` : ''}</h2>
      {q.isPending ? <Loading what={what} /> : q.isError ? <Failed error={q.error} retry={() => void q.refetch()} />
        : items(q.data).length === 0 ? <Empty>{empty}</Empty> : render(items(q.data))}
      {q.data && <Pager page={q.data.page} links={q.data._links} label={title} onPage={setPage} />}
    </section>
  );
}
