/** A webhook endpoint's last deliveries, newest first, each with its last attempt: what a receiver's owner asks about. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, read } from '../api';
import { when } from '../format';
import { Empty, Failed, Loading } from './states';

const LAST = 20;

// Not under the endpoints' key: a change of the endpoint (its delete above all) does not read its deliveries again.
export const deliveriesQuery = (uid: string) => queryOptions({
  queryKey: ['webhook_deliveries', uid],
  queryFn: () => read(api.GET('/webhooks/{id}/deliveries', { params: { path: { id: uid }, query: { page: 0, size: LAST } } })),
});

const STATUS: Record<string, string> = { pending: 'Pending', sent: 'Sent', dead: 'Given up' };

export function WebhookDeliveries({ uid }: { uid: string }) {
  const result = useQuery(deliveriesQuery(uid));
  const rows = result.data?._embedded.deliveries;
  return (
    <section aria-labelledby="deliveries-title">
      <div className="title-row">
        <h2 id="deliveries-title">Last deliveries</h2>
        <button type="button" className="secondary" onClick={() => void result.refetch()}>Refresh</button>
      </div>
      {result.isPending ? <Loading what="the deliveries" /> : result.isError ? <Failed error={result.error} retry={() => void result.refetch()} />
        : !rows || rows.length === 0 ? <Empty>No deliveries yet: they appear here once an event it subscribes to happens while notifications are on.</Empty> : (
          <table className="list labelled">
            <caption className="visually-hidden">Deliveries, newest first: {rows.length} of {result.data.page.totalElements}</caption>
            <thead>
              <tr>{['Event', 'Status', 'Attempts', 'Last attempt', 'Answer', 'Error', 'Next attempt'].map((c) => <th key={c} scope="col">{c}</th>)}</tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td data-label="Event">{d.event}</td>
                  <td data-label="Status"><span className={`status ${d.status}`}>{STATUS[d.status] ?? d.status}</span></td>
                  <td data-label="Attempts">{d.attempts}</td>
                  <td data-label="Last attempt">{when(d.lastAttemptAt)}</td>
                  <td data-label="Answer">{d.lastStatus ?? ''}</td>
                  <td data-label="Error" className="details">{d.lastError ?? ''}</td>
                  <td data-label="Next attempt">{when(d.nextAttemptAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </section>
  );
}
