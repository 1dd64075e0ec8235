/** Every stream the person may see: searched, sorted and paged by the API (a page of 20 whatever the tenant's size). */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Pager } from '../components/Pager';
import { SortHeader } from '../components/SortHeader';
import { Empty, Failed, Loading } from '../components/states';
import { streamsQuery } from '../queries';
import { when } from '../format';

export function StreamsCatalog() {
  const search = useSearch({ from: '/streams' });
  const navigate = useNavigate({ from: '/streams' });
  const q = useQuery(streamsQuery(search));
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => setText(search.q ?? ''), [search.q]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void navigate({ search: (s) => ({ ...s, q: text.trim() || undefined, page: 0 }) });
  };
  const sortBy = (sort: string) => void navigate({ search: (s) => ({ ...s, sort, page: 0 }) });
  const streams = q.data?._embedded.streams;
  return (
    <>
      <h1>Streams</h1>
      <form role="search" className="search" onSubmit={submit}>
        <label htmlFor="stream-search">Name contains</label>
        <input id="stream-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Search</button>
      </form>
      {q.isPending ? <Loading what="streams" /> : q.isError ? <Failed error={q.error} retry={() => void q.refetch()} />
        : streams!.length === 0 ? <Empty>{search.q ? `No stream you may see has "${search.q}" in its name.` : 'No stream you may see yet.'}</Empty> : (
          <table className="list">
            <caption className="visually-hidden">Streams, {q.data.page.totalElements} in all</caption>
            <thead>
              <tr>
                <SortHeader field="name" label="Name" sort={search.sort} onSort={sortBy} />
                <th scope="col">Description</th>
                <th scope="col">Key / value</th>
                <SortHeader field="created_at" label="Created" sort={search.sort} onSort={sortBy} />
              </tr>
            </thead>
            <tbody>
              {streams!.map((s) => (
                <tr key={s.uid}>
                  <td><Link to="/streams/$uid" params={{ uid: s.uid }}>{s.name}</Link></td>
                  <td>{s.description}</td>
                  <td>{s.keyType} / {s.valueType}</td>
                  <td>{when(s.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {q.data && <Pager page={q.data.page} label="Streams" onPage={(page) => void navigate({ search: (s) => ({ ...s, page }) })} />}
    </>
  );
}
