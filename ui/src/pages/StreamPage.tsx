/**
 * One stream: its fields and schemas; per environment its config (topic, partitions, retention, pinned versions),
 * who produces and consumes (the graph), the access requests and a request of one's own; and its audit history.
 */
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import { AuditHistory } from '../components/AuditHistory';
import { GrantList } from '../components/GrantList';
import { Promote } from '../components/Promote';
import { StreamConfigForm, UndeployConfig } from '../components/StreamConfigForm';
import { withTag } from '../forms/Editor';
import { expectedGraphHeight } from '../components/graph-size';
import { RequestAccess } from '../components/RequestAccess';
import { Empty, Failed, Loading } from '../components/states';
import { when } from '../format';
import { streamAccessQuery, streamConfigsQuery, streamGraphQuery, streamQuery } from '../queries';

const StreamGraph = lazy(() => import('../components/StreamGraph').then((m) => ({ default: m.StreamGraph })));

export const STREAM_TABS = ['overview', 'environments', 'history'] as const;
export type StreamTab = (typeof STREAM_TABS)[number];

export function StreamPage() {
  const { uid } = useParams({ from: '/streams/$uid' });
  const { tab } = useSearch({ from: '/streams/$uid' });
  const navigate = useNavigate({ from: '/streams/$uid' });
  const stream = useQuery(streamQuery(uid));
  if (stream.isPending) return <Loading what="the stream" />;
  if (stream.isError) return <Failed error={stream.error} retry={() => void stream.refetch()} />;
  const s = stream.data;
  const select = (key: Key) => void navigate({ search: { tab: key as StreamTab }, replace: true });
  return (
    <>
      <div className="title-row">
        <h1>{s.name}</h1>
        {s._links?.edit && <Link className="button" to="/edit/$kind/$uid" params={{ kind: 'streams', uid: s.uid }}>Edit stream</Link>}
      </div>
      {s.description && <p>{s.description}</p>}
      <Tabs selectedKey={tab ?? 'overview'} onSelectionChange={select}>
        <TabList aria-label="Stream" className="tabs">
          <Tab id="overview">Overview</Tab>
          <Tab id="environments">Environments</Tab>
          <Tab id="history">History</Tab>
        </TabList>
        <TabPanel id="overview"><Overview stream={s} /></TabPanel>
        <TabPanel id="environments"><Environments stream={s} /></TabPanel>
        <TabPanel id="history"><AuditHistory resourceId={s.uid} /></TabPanel>
      </Tabs>
    </>
  );
}

function Overview({ stream: s }: { stream: Schemas['Stream'] }) {
  const parts = s._embedded;
  return (
    <dl className="fields">
      <dt>Owners</dt><dd>{parts?.owners?.name ?? '—'}</dd>
      <dt>Key</dt><dd>{s.keyType}{parts?.keySchema ? `, schema ${parts.keySchema.name}` : ''}</dd>
      <dt>Value</dt><dd>{s.valueType}{parts?.valueSchema ? `, schema ${parts.valueSchema.name}` : ''}</dd>
      <dt>Retention policy</dt><dd>{s.retentionPolicy}</dd>
      <dt>Visibility</dt><dd>{s.visibility}</dd>
      <dt>Created</dt><dd>{when(s.created_at)} by {s.created_by ?? 'unknown'}</dd>
      <dt>Changed</dt><dd>{when(s.modified_at)} by {s.modified_by ?? 'unknown'}</dd>
    </dl>
  );
}

function Environments({ stream }: { stream: Schemas['Stream'] }) {
  const configs = useQuery(streamConfigsQuery(stream.uid));
  const graph = useQuery(streamGraphQuery(stream.uid));
  if (configs.isPending) return <Loading what="stream configs" />;
  if (configs.isError) return <Failed error={configs.error} retry={() => void configs.refetch()} />;
  const list = configs.data._embedded.stream_configs;
  return (
    <>
      {list.length === 0 && <Empty>Not deployed in any environment you may see.</Empty>}
      {stream._links?.edit && <Deploy stream={stream} />}
      {list.map((c) => {
        const env = c._embedded?.environment;
        const envGraph = graph.data?.environments.find((e) => e.environment.uid === env?.uid);
        return (
          <section key={c.uid} aria-labelledby={`env-${c.uid}`} className="environment">
            <h2 id={`env-${c.uid}`}>{env?.name ?? 'Environment'}</h2>
            <dl className="fields">
              <dt>Topic</dt><dd>{c.topicName ?? '—'}</dd>
              <dt>Partitions</dt><dd>{c.partitions}</dd>
              <dt>Retention</dt><dd>{c.retentionTime} ms</dd>
              <dt>Pinned key version</dt><dd>{c._embedded?.keySchemaVersion?.version ?? '—'}</dd>
              <dt>Pinned value version</dt><dd>{c._embedded?.valueSchemaVersion?.version ?? '—'}</dd>
            </dl>
            {c._links?.edit && <ChangeConfig stream={stream} config={c} />}
            {c._links?.delete && <UndeployConfig config={c} />}
            {c._links?.promote && <Promote configUid={c.uid} environmentName={env?.name ?? 'this environment'} />}
            <h3>Producers and consumers</h3>
            {graph.isPending ? <Loading what="the graph" /> : graph.isError ? <Failed error={graph.error} /> : envGraph
              ? <Suspense fallback={<GraphRoom graph={envGraph} />}><StreamGraph stream={stream} graph={envGraph} /></Suspense>
              : <Empty>Nothing to draw here.</Empty>}
            {env && <EnvironmentAccess streamUid={stream.uid} environment={env} />}
          </section>
        );
      })}
    </>
  );
}

/** While the graph's code loads: its loading state in the room the drawing will take. */
function GraphRoom({ graph }: { graph: Schemas['StreamGraph']['environments'][number] }) {
  const height = expectedGraphHeight({
    producers: graph.producers.length + graph.pendingRequests.filter((r) => r.accessType === 'PRODUCER').length,
    consumers: graph.consumers.length + graph.pendingRequests.filter((r) => r.accessType !== 'PRODUCER').length,
  });
  return (
    <figure className="graph">
      <svg width="1" height={height} aria-hidden="true" focusable="false" />
      <Loading what="the graph" />
    </figure>
  );
}

function Deploy({ stream }: { stream: Schemas['Stream'] }) {
  const [open, setOpen] = useState(false);
  return open ? <StreamConfigForm stream={stream} onDone={() => setOpen(false)} />
    : <p><button type="button" onClick={() => setOpen(true)}>Deploy to another environment…</button></p>;
}

/** The config is read again with its version when the form opens, so a save cannot overwrite someone else's change. */
function ChangeConfig({ stream, config }: { stream: Schemas['Stream']; config: Schemas['StreamConfig'] }) {
  const [open, setOpen] = useState(false);
  const current = useQuery({
    queryKey: ['stream_configs', 'edit', config.uid],
    queryFn: () => withTag(api.GET('/stream_configs/{id}', { params: { path: { id: config.uid } } })),
    enabled: open,
    staleTime: 0,
  });
  if (!open) return <button type="button" className="secondary" onClick={() => setOpen(true)}>Change config…</button>;
  if (current.isPending) return <Loading what="the config" />;
  if (current.isError) return <Failed error={current.error} retry={() => void current.refetch()} />;
  return <StreamConfigForm key={current.data.etag} stream={stream} config={current.data.item} etag={current.data.etag} onDone={() => setOpen(false)} reload={() => void current.refetch()} />;
}

function EnvironmentAccess({ streamUid, environment }: { streamUid: string; environment: { uid: string; name: string } }) {
  const [asking, setAsking] = useState(false);
  const grants = useQuery(streamAccessQuery(streamUid));
  const here = grants.data?._embedded.applicationAccessGrantResponses.filter((g) => (g._embedded.environment as { uid?: string } | undefined)?.uid === environment.uid) ?? [];
  const more = grants.data ? grants.data.page.totalElements - grants.data._embedded.applicationAccessGrantResponses.length : 0;
  return (
    <>
      <h3>Access</h3>
      {grants.isPending ? <Loading what="access" /> : grants.isError ? <Failed error={grants.error} retry={() => void grants.refetch()} />
        : here.length === 0 ? <Empty>No access requested or granted here that you may see.</Empty> : <GrantList grants={here} />}
      {more > 0 && <p className="meta">The newest {grants.data?._embedded.applicationAccessGrantResponses.length} of {grants.data?.page.totalElements} open requests and grants of this stream are shown.</p>}
      {asking ? <RequestAccess streamUid={streamUid} environment={environment} />
        : <button type="button" onClick={() => setAsking(true)}>Request access in {environment.name}…</button>}
    </>
  );
}
