import { describe, expect, it } from 'vitest';
import { cloudEventOf } from '../../core/rules/notification-cloudevent';
import type { AccessFacts, DeploymentFacts } from '../../core/rules/notification-events';

const team = { name: 'Billing Team', email: 'billing@example.com', members: [{ name: 'Ann App', email: 'ann@example.com' }] };
const envelope = { id: 'ev1', source: 'https://portal.example.com/api', time: new Date('2026-11-21T10:15:30.120Z'), tenant: 'demo', link: 'https://portal.example.com/x', subject: 'g1' };
const access: AccessFacts = {
  kind: 'access', stream: { uid: 's1', name: 'payments' }, application: { uid: 'a1', name: 'Billing', shortName: 'billing' },
  environment: { uid: 'e1', name: 'Development', shortName: 'dev' }, accessType: 'PRODUCER', streamOwners: team, applicationOwners: team,
  requester: { name: 'Rita', email: 'rita@example.com' }, actor: null, reason: 'not needed', expiresAt: new Date('2026-12-01T00:00:00Z'),
};

describe('cloudEventOf', () => {
  it('answers a CloudEvents 1.0 structured event with the access facts a receiver acts on, and no owners or members', () => {
    const e = cloudEventOf('access.denied', access, envelope);
    expect(e).toEqual({
      specversion: '1.0', id: 'ev1', source: 'https://portal.example.com/api', type: 'platform.access.denied', subject: 'g1',
      time: '2026-11-21T10:15:30.120Z', datacontenttype: 'application/json',
      data: {
        event: 'access.denied', tenant: 'demo', application: { uid: 'a1', name: 'Billing', shortName: 'billing' },
        environment: { uid: 'e1', name: 'Development', shortName: 'dev' }, actor: null, link: 'https://portal.example.com/x',
        stream: { uid: 's1', name: 'payments' }, accessType: 'PRODUCER', grant: 'g1', reason: 'not needed', expiresAt: '2026-12-01T00:00:00.000Z',
      },
    });
    expect(JSON.stringify(e)).not.toContain('ann@example.com');
  });

  it('answers a deployment event with its deployment, error and actor', () => {
    const facts: DeploymentFacts = {
      kind: 'deployment', application: access.application, environment: access.environment, applicationOwners: team,
      actor: { name: 'Ann App', email: 'ann@example.com' }, error: 'No approved Application Access Grant',
    };
    const e = cloudEventOf('deployment.failed', facts, { ...envelope, subject: 'd1' }) as { type: string; data: Record<string, unknown> };
    expect(e.type).toBe('platform.deployment.failed');
    expect(e.data).toMatchObject({ deployment: 'd1', error: 'No approved Application Access Grant', actor: { name: 'Ann App', email: 'ann@example.com' } });
    expect(e.data).not.toHaveProperty('stream');
  });
});
