/**
 * Promoting a stream config to the next environment (its environment's successor): first the dry run's plan as a
 * readable diff (each field from → to, what stays, what is not promoted and why, the refusals a real run would meet,
 * in words), then the real run. An incompatible pinned version can be promoted anyway, explicitly.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { api, failureText, read } from '../api';

type Plan = Schemas['PromotionPlan'];

const FIELD_NAMES: Record<string, string> = {
  partitions: 'Partitions', retentionTime: 'Retention (ms)', properties: 'Properties',
  keySchemaVersion: 'Pinned key version', valueSchemaVersion: 'Pinned value version',
};

/** A promoted value as a person reads it: a pinned version by its number, nothing as "none". */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'object' && 'version' in (value as object)) return `version ${(value as { version: unknown }).version}`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k}=${String(v)}`).join(', ');
  }
  return String(value);
}

const fieldName = (field: string) => FIELD_NAMES[field] ?? field;

export function Promote({ configUid, environmentName }: { configUid: string; environmentName: string }) {
  const queryClient = useQueryClient();
  const [force, setForce] = useState(false);
  const run = (dryRun: boolean) => read(api.POST('/stream_configs/{id}/promote', {
    params: { path: { id: configUid } }, body: { dryRun, ...(force ? { force: true } : {}) },
  }));
  const plan = useMutation({ mutationFn: () => run(true) as Promise<Plan> });
  const promote = useMutation({
    mutationFn: () => run(false),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['stream_configs'] });
      void queryClient.invalidateQueries({ queryKey: ['graph'] });
    },
  });
  if (promote.isSuccess && plan.data) {
    return <p role="status" className="state">Promoted to {plan.data.target.environment}.</p>;
  }
  if (!plan.data) {
    return (
      <div className="promote">
        <button type="button" className="secondary" disabled={plan.isPending} onClick={() => plan.mutate()}>Plan a promotion from {environmentName}…</button>
        {plan.isError && <p className="field-error" role="alert">{failureText(plan.error)}</p>}
      </div>
    );
  }
  const p = plan.data;
  const incompatible = p.refusals.some((r) => r.code === 422 && (r.errors ?? []).length > 0);
  const blocking = p.refusals.filter((r) => !(force && r.code === 422));
  return (
    <section className="promote" aria-labelledby={`plan-${configUid}`}>
      <h4 id={`plan-${configUid}`}>Promotion plan: {p.source.environment} → {p.target.environment}</h4>
      <p>{p.action === 'create' ? `Creates the stream's config in ${p.target.environment}` : `Updates the stream's config in ${p.target.environment}`}, topic {p.target.topicName ?? 'named by the target instance'}.</p>
      {p.changes.length === 0 ? <p className="state">Nothing would change: {p.target.environment} has these values already.</p> : (
        <table className="list">
          <caption>What changes</caption>
          <thead><tr><th scope="col">Field</th><th scope="col">Now</th><th scope="col">After</th></tr></thead>
          <tbody>{p.changes.map((c) => <tr key={c.field}><td>{fieldName(c.field)}</td><td>{shownValue(c.from)}</td><td>{shownValue(c.to)}</td></tr>)}</tbody>
        </table>
      )}
      {p.unchanged.length > 0 && <p className="meta">Already the same: {p.unchanged.map(fieldName).join(', ')}.</p>}
      {p.notPromoted.length > 0 && (
        <ul className="meta">{p.notPromoted.map((n) => <li key={n.field}>Not promoted: {fieldName(n.field)} ({shownValue(n.to)}): {n.reason}</li>)}</ul>
      )}
      {p.refusals.length > 0 && (
        <div role="alert" className="refusals">
          <p>A promotion now would be refused:</p>
          <ul>{p.refusals.map((r, i) => <li key={i}>{r.message}{(r.errors ?? []).length > 0 && `: ${(r.errors ?? []).join('; ')}`}</li>)}</ul>
        </div>
      )}
      {incompatible && (
        <label className="inline"><input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Promote the incompatible schema version anyway</label>
      )}
      <div className="buttons">
        <button type="button" disabled={blocking.length > 0 || p.changes.length === 0 || promote.isPending} onClick={() => promote.mutate()}>Promote to {p.target.environment}</button>
        <button type="button" className="secondary" onClick={() => { plan.reset(); promote.reset(); setForce(false); }}>Close the plan</button>
      </div>
      {promote.isError && <p className="field-error" role="alert">{failureText(promote.error)}</p>}
    </section>
  );
}
