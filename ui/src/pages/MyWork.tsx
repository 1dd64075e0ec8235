/**
 * Where a signed-in person lands: the requests waiting for their decision, their own pending requests, their
 * applications and their streams, each a page of its own list.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { GrantList } from '../components/GrantList';
import { Pager } from '../components/Pager';
import { Empty, Failed, Loading } from '../components/states';
import { grantsQuery, myApplicationsQuery, myStreamsQuery } from '../queries';

export function MyWork() {
  return (
    <>
      <h1>My work</h1>
      <Grants filter="awaiting" title="Waiting for my decision" empty="Nothing waits for your decision." />
      <Grants filter="mine" title="My pending requests" empty="None of your applications waits for access." />
      <MyApplications />
      <MyStreams />
    </>
  );
}

function Grants({ filter, title, empty }: { filter: 'awaiting' | 'mine'; title: string; empty: string }) {
  const [page, setPage] = useState(0);
  const q = useQuery(grantsQuery(filter, page));
  const id = `grants-${filter}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}{q.data ? ` (${q.data.page.totalElements})` : ''}</h2>
      {q.isPending ? <Loading what="requests" /> : q.isError ? <Failed error={q.error} retry={() => void q.refetch()} />
        : q.data._embedded.applicationAccessGrantResponses.length === 0 ? <Empty>{empty}</Empty>
          : <GrantList grants={q.data._embedded.applicationAccessGrantResponses} />}
      {q.data && <Pager page={q.data.page} label={title} onPage={setPage} />}
    </section>
  );
}

function MyApplications() {
  const [page, setPage] = useState(0);
  const q = useQuery(myApplicationsQuery(page));
  return (
    <section aria-labelledby="my-applications">
      <h2 id="my-applications">My applications</h2>
      {q.isPending ? <Loading what="applications" /> : q.isError ? <Failed error={q.error} retry={() => void q.refetch()} />
        : q.data._embedded.applications.length === 0 ? <Empty>No application is owned by a group of yours.</Empty> : (
          <ul className="cards">
            {q.data._embedded.applications.map((a) => <li key={a.uid}><Link to="/applications/$uid" params={{ uid: a.uid }}>{a.name}</Link> <span className="meta">{a.shortName}</span></li>)}
          </ul>
        )}
      {q.data && <Pager page={q.data.page} label="My applications" onPage={setPage} />}
    </section>
  );
}

function MyStreams() {
  const [page, setPage] = useState(0);
  const q = useQuery(myStreamsQuery(page));
  return (
    <section aria-labelledby="my-streams">
      <h2 id="my-streams">My streams</h2>
      {q.isPending ? <Loading what="streams" /> : q.isError ? <Failed error={q.error} retry={() => void q.refetch()} />
        : q.data._embedded.streams.length === 0 ? <Empty>No stream is owned by a group of yours.</Empty> : (
          <ul className="cards">
            {q.data._embedded.streams.map((s) => (
              <li key={s.uid}><Link to="/streams/$uid" params={{ uid: s.uid }}>{s.name}</Link> <span className="meta">{s.description}</span></li>
            ))}
          </ul>
        )}
      {q.data && <Pager page={q.data.page} label="My streams" onPage={setPage} />}
    </section>
  );
}
