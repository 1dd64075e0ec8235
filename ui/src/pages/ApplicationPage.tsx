/** One application: what it is, who owns it, and its access (requests and grants) in every environment. */
import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api, read } from '../api';
import { AuditHistory } from '../components/AuditHistory';
import { GrantList } from '../components/GrantList';
import { Empty, Failed, Loading } from '../components/states';

export function ApplicationPage() {
  const { uid } = useParams({ from: '/applications/$uid' });
  const application = useQuery({
    queryKey: ['applications', 'item', uid],
    queryFn: () => read(api.GET('/applications/{id}', { params: { path: { id: uid } } })),
  });
  const grants = useQuery({
    queryKey: ['grants', 'application', uid],
    queryFn: () => read(api.GET('/application_access_grants/search/findByAttributes', { params: { query: { applicationId: uid, size: 50, sort: ['created_at,desc'] } } })),
  });
  if (application.isPending) return <Loading what="the application" />;
  if (application.isError) return <Failed error={application.error} retry={() => void application.refetch()} />;
  const a = application.data;
  return (
    <>
      <div className="title-row">
        <h1>{a.name}</h1>
        {a._links?.edit && <Link className="button" to="/edit/$kind/$uid" params={{ kind: 'applications', uid: a.uid }}>Edit application</Link>}
      </div>
      {a.description && <p>{a.description}</p>}
      <dl className="fields">
        <dt>Short name</dt><dd>{a.shortName}</dd>
        <dt>Application id</dt><dd>{a.applicationId}</dd>
        <dt>Kind</dt><dd>{a.applicationType}{a.type ? `, ${a.type}` : ''}</dd>
        <dt>Visibility</dt><dd>{a.visibility}</dd>
      </dl>
      <section aria-labelledby="app-access">
        <h2 id="app-access">Access</h2>
        {grants.isPending ? <Loading what="access" /> : grants.isError ? <Failed error={grants.error} retry={() => void grants.refetch()} />
          : grants.data._embedded.applicationAccessGrantResponses.length === 0 ? <Empty>No access requested or granted.</Empty>
            : <GrantList grants={grants.data._embedded.applicationAccessGrantResponses} />}
      </section>
      <section aria-labelledby="app-history">
        <h2 id="app-history">History</h2>
        <AuditHistory resourceId={a.uid} />
      </section>
    </>
  );
}
