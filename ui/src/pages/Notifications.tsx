/**
 * `/admin/notifications`, a tenant admin's: whether the tenant sends notifications, and its webhook endpoints (each
 * leading to its editor, where its secret is rotated and its deliveries listed). Others are told it is not theirs.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import { Catalog } from '../components/Catalog';
import type { CatalogSearch } from '../components/catalog-search';
import { currentTenantQuery, NotificationsSwitch } from '../components/NotificationsSwitch';
import { Failed, Loading } from '../components/states';
import { EVENT_NAMES } from '../editors/webhooks';
import { when } from '../format';
import { currentUserQuery } from '../queries';
import { catalogQuery } from './catalogs';

const webhooksQuery = (search: CatalogSearch) => catalogQuery('webhooks', search, (query) => api.GET('/webhooks', { params: { query } }));

/** The page's reads, started by its route's loader as the page opens. */
export function prefetchNotifications(queryClient: QueryClient, search: CatalogSearch): void {
  void queryClient.prefetchQuery(currentTenantQuery());
  void queryClient.prefetchQuery(webhooksQuery(search));
}

export function Notifications() {
  const user = useQuery(currentUserQuery());
  if (user.isPending) return <Loading what="the page" />;
  if (user.isError) return <Failed error={user.error} retry={() => void user.refetch()} />;
  if (!user.data.roles.some((r) => r.name === 'TENANT_ADMIN')) {
    return (
      <>
        <h1>Notifications</h1>
        <p className="state">Only tenant admins manage the tenant's notifications and webhooks.</p>
      </>
    );
  }
  return (
    <>
      <h1>Notifications</h1>
      <NotificationsSwitch />
      <section aria-labelledby="webhooks-title">
        <Webhooks />
      </section>
    </>
  );
}

/** The events subscribed to, or those left out when that says it shorter. */
function eventsText(events: string[]): string {
  const missing = EVENT_NAMES.filter((e) => !events.includes(e));
  if (missing.length === 0) return 'All events';
  return missing.length < events.length ? `All but ${missing.join(', ')}` : events.join(', ');
}

function Webhooks() {
  const search = useSearch({ from: '/admin/notifications' });
  const navigate = useNavigate();
  const result = useQuery(webhooksQuery(search));
  return (
    <Catalog<Schemas['Webhook']> level={2} titleId="webhooks-title" title="Webhook endpoints" noun="webhooks" search={search} result={result}
      rows={result.data?._embedded.webhooks} searchable={false} labelled
      actions={<Link className="button" to="/edit/$kind/$uid" params={{ kind: 'webhooks', uid: 'new' }}>New webhook</Link>}
      onSearch={(change) => void navigate({ to: '/admin/notifications', search: { ...search, ...change } })}
      columns={[
        { label: 'URL', sortField: 'url', cell: (w) => <Link to="/edit/$kind/$uid" params={{ kind: 'webhooks', uid: w.uid }}>{w.url}</Link> },
        { label: 'Events', cell: (w) => eventsText(w.events) },
        { label: 'Active', sortField: 'active', cell: (w) => (w.active ? 'Yes' : 'No: paused') },
        { label: 'Previous secret signs until', cell: (w) => (w.previousSecretValidUntil ? when(w.previousSecretValidUntil) : '') },
      ]} />
  );
}
