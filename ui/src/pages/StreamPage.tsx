/** One stream: its fields, its schemas, and where it is deployed (a stream config per environment). */
import { useQuery } from '@tanstack/react-query';
import { api, read } from '../api';
import { Empty, Failed, Loading } from '../components/states';
import { streamQuery } from '../queries';
import { useParams } from '@tanstack/react-router';
import { when } from '../format';

export function StreamPage() {
  const { uid } = useParams({ from: '/streams/$uid' });
  const stream = useQuery(streamQuery(uid));
  const configs = useQuery({
    queryKey: ['stream_configs', 'byStream', uid],
    queryFn: () => read(api.GET('/stream_configs/search/findByStream', { params: { query: { stream: uid, size: 100 } } })),
  });
  if (stream.isPending) return <Loading what="the stream" />;
  if (stream.isError) return <Failed error={stream.error} retry={() => void stream.refetch()} />;
  const s = stream.data;
  const parts = s._embedded;
  return (
    <>
      <h1>{s.name}</h1>
      {s.description && <p>{s.description}</p>}
      <dl className="fields">
        <dt>Owners</dt><dd>{parts?.owners?.name ?? '—'}</dd>
        <dt>Key</dt><dd>{s.keyType}{parts?.keySchema ? ` (${parts.keySchema.name})` : ''}</dd>
        <dt>Value</dt><dd>{s.valueType}{parts?.valueSchema ? ` (${parts.valueSchema.name})` : ''}</dd>
        <dt>Retention policy</dt><dd>{s.retentionPolicy}</dd>
        <dt>Visibility</dt><dd>{s.visibility}</dd>
        <dt>Created</dt><dd>{when(s.created_at)} by {s.created_by ?? 'unknown'}</dd>
      </dl>
      <section aria-labelledby="configs">
        <h2 id="configs">Environments</h2>
        {configs.isPending ? <Loading what="stream configs" /> : configs.isError ? <Failed error={configs.error} retry={() => void configs.refetch()} />
          : configs.data._embedded.stream_configs.length === 0 ? <Empty>Not deployed in any environment you may see.</Empty> : (
            <table className="list">
              <thead><tr><th scope="col">Environment</th><th scope="col">Topic</th><th scope="col">Partitions</th><th scope="col">Retention (ms)</th></tr></thead>
              <tbody>
                {configs.data._embedded.stream_configs.map((c) => (
                  <tr key={c.uid}>
                    <td>{c._embedded?.environment?.name ?? ''}</td>
                    <td>{c.topicName ?? ''}</td>
                    <td>{c.partitions}</td>
                    <td>{c.retentionTime}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
      </section>
    </>
  );
}
