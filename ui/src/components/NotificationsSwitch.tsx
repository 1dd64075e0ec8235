/**
 * The tenant's notifications setting as a switch that saves as it is turned, with the version it was read at (a
 * change someone else saved meanwhile is not overwritten: the switch says so and offers a reload).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { FormProblem, headers, withTag } from '../forms/Editor';
import { Failed, Loading } from './states';

export const currentTenantQuery = () => queryOptions({
  queryKey: ['tenant'],
  queryFn: () => withTag(api.GET('/tenant')),
});

export function NotificationsSwitch() {
  const queryClient = useQueryClient();
  const tenant = useQuery(currentTenantQuery());
  const save = useMutation({
    mutationFn: ({ uid, on, etag }: { uid: string; on: boolean; etag?: string }) => withTag(api.PATCH('/tenants/{id}', {
      params: { path: { id: uid } }, body: { settings: { notificationsEnabled: on ? 'true' : 'false' } }, headers: headers(etag),
    })),
    onSuccess: (saved) => {
      if (saved.etag) queryClient.setQueryData(currentTenantQuery().queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: ['tenant'] });
    },
  });
  if (tenant.isPending) return <Loading what="the notifications setting" />;
  if (tenant.isError) return <Failed error={tenant.error} retry={() => void tenant.refetch()} />;
  const { item, etag } = tenant.data;
  const on = save.isPending ? save.variables.on : item.settings.notificationsEnabled === 'true';
  const mayEdit = item._links.edit !== undefined;
  return (
    <div className="field switch">
      <label className="inline" htmlFor="notifications-on">
        {/* Not disabled while saving: a disabled control loses the keyboard's focus. */}
        <input id="notifications-on" type="checkbox" role="switch" checked={on} disabled={!mayEdit} aria-describedby="notifications-hint"
          onChange={(e) => { if (!save.isPending) save.mutate({ uid: item.uid, on: e.target.checked, etag }); }} />
        Send notifications
      </label>
      <p id="notifications-hint" className="meta hint">
        Mail stream owners when access is requested, and applicants and application owners when it is decided, expires or
        a deployment changes; deliver the same events to the webhooks below.
      </p>
      <FormProblem error={save.error} onReload={() => { save.reset(); void tenant.refetch(); }} />
      <p role="status" className="saved">{save.isSuccess ? `Saved: notifications are ${on ? 'on' : 'off'}.` : ''}</p>
    </div>
  );
}
