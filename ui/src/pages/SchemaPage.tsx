/** One schema: what it is, who owns it, and its versions, newest first, each with its text. */
import { useState } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, read } from '../api';
import { Pager } from '../components/Pager';
import { Empty, Failed, Loading } from '../components/states';
import { when } from '../format';

export function SchemaPage() {
  const { uid } = useParams({ from: '/schemas/$uid' });
  const [page, setPage] = useState(0);
  const schema = useQuery({
    queryKey: ['schemas', 'item', uid],
    queryFn: () => read(api.GET('/schemas/{id}', { params: { path: { id: uid } } })),
  });
  const versions = useQuery({
    queryKey: ['schema_versions', 'of', uid, page],
    queryFn: () => read(api.GET('/schema_versions/search/findAllBySchema', { params: { query: { schema: uid, page, size: 10, sort: ['created_at,desc'] } } })),
    placeholderData: keepPreviousData,
  });
  if (schema.isPending) return <Loading what="the schema" />;
  if (schema.isError) return <Failed error={schema.error} retry={() => void schema.refetch()} />;
  const s = schema.data;
  return (
    <>
      <div className="title-row">
        <h1>{s.name}</h1>
        <div className="buttons">
          <Link className="button" to="/schemas/upload" search={{ schema: s.uid }}>Upload a version</Link>
          {s._links?.edit && <Link className="button" to="/edit/$kind/$uid" params={{ kind: 'schemas', uid: s.uid }}>Edit schema</Link>}
        </div>
      </div>
      {s.description && <p>{s.description}</p>}
      <dl className="fields">
        <dt>Type</dt><dd>{s.type}</dd>
        <dt>Owners</dt><dd>{s._embedded?.owners?.name ?? s.owners?.name ?? '—'}</dd>
        <dt>Created</dt><dd>{when(s.created_at)} by {s.created_by ?? 'unknown'}</dd>
      </dl>
      <h2>Versions</h2>
      {versions.isPending ? <Loading what="versions" /> : versions.isError ? <Failed error={versions.error} retry={() => void versions.refetch()} />
        : versions.data._embedded.schema_versions.length === 0 ? <Empty>No versions.</Empty> : (
          <ul className="cards">
            {versions.data._embedded.schema_versions.map((v) => (
              <li key={v.uid}>
                <details>
                  <summary>Version {v.version} <span className="meta">{when(v.created_at)}</span></summary>
                  <pre className="code">{v.schemaBody}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      {versions.data && <Pager page={versions.data.page} label="Versions" onPage={setPage} />}
    </>
  );
}
