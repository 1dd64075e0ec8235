import { describe, expect, it } from 'vitest';
import { messageOf, NOTIFICATION_EVENTS, oneLine, recipientsOf, type AccessFacts, type DeploymentFacts, type Team } from '../../core/rules/notification-events';

const PORTAL = 'https://portal.example.com/';
const streamTeam: Team = { name: 'Payments Team', email: null, members: [{ name: 'Sam Stream', email: 'sam@example.com' }, { name: 'No Mail', email: null }] };
const appTeam: Team = { name: 'Billing Team', email: 'billing@example.com', members: [{ name: 'Ann App', email: 'ann@example.com' }] };
const access = (extra: Partial<AccessFacts> = {}): AccessFacts => ({
  kind: 'access',
  stream: { uid: 's1', name: 'payments' },
  application: { uid: 'a1', name: 'Billing', shortName: 'billing' },
  environment: { uid: 'e1', name: 'Development', shortName: 'dev' },
  accessType: 'CONSUMER',
  streamOwners: streamTeam,
  applicationOwners: appTeam,
  requester: { name: 'Rita Requester', email: 'rita@example.com' },
  actor: { name: 'Sam Stream', email: 'sam@example.com' },
  ...extra,
});
const deployment = (extra: Partial<DeploymentFacts> = {}): DeploymentFacts => ({
  kind: 'deployment', application: { uid: 'a1', name: 'Billing', shortName: 'billing' }, environment: { uid: 'e1', name: 'Development', shortName: 'dev' },
  applicationOwners: appTeam, actor: { name: 'Ann App', email: 'ann@example.com' }, ...extra,
});
const emails = (r: { to: { email: string | null }[] }) => r.to.map((p) => p.email);

describe('recipientsOf', () => {
  it("sends a request to the stream's owners: their members when the group has no address, those without one skipped and counted", () => {
    expect(recipientsOf('access.requested', access())).toEqual({ to: [{ name: 'Sam Stream', email: 'sam@example.com' }], skipped: 1 });
  });

  it("sends a request to the owners group's own address when it has one, not to each member", () => {
    expect(emails(recipientsOf('access.requested', access({ streamOwners: { ...streamTeam, email: 'payments@example.com' } })))).toEqual(['payments@example.com']);
  });

  it.each(['access.approved', 'access.denied', 'access.revoked', 'access.cancelled'] as const)('sends %s to the requester and the application owners', (event) => {
    expect(recipientsOf(event, access())).toEqual({ to: [{ name: 'Rita Requester', email: 'rita@example.com' }, { name: 'Billing Team', email: 'billing@example.com' }], skipped: 0 });
  });

  it('writes to an address once, ignoring case, and counts a requester without one', () => {
    const same = access({ requester: { name: 'Billing Bot', email: 'Billing@Example.com' } });
    expect(emails(recipientsOf('access.approved', same))).toEqual(['Billing@Example.com']);
    expect(recipientsOf('access.denied', access({ requester: { name: 'Gone', email: null } }))).toEqual({ to: [{ name: 'Billing Team', email: 'billing@example.com' }], skipped: 1 });
  });

  it.each(['access.expiring', 'access.expired'] as const)('sends %s to the application owners only', (event) => {
    expect(emails(recipientsOf(event, access()))).toEqual(['billing@example.com']);
  });

  it.each(['deployment.started', 'deployment.stopped', 'deployment.failed'] as const)('sends %s to the application owners', (event) => {
    const members = { ...appTeam, email: null };
    expect(emails(recipientsOf(event, deployment({ applicationOwners: members })))).toEqual(['ann@example.com']);
  });

  it('answers nobody, and counts them, when no one has an address', () => {
    expect(recipientsOf('access.requested', access({ streamOwners: { name: 'Quiet', email: null, members: [{ name: 'A', email: null }, { name: 'B', email: null }] } }))).toEqual({ to: [], skipped: 2 });
  });
});

describe('messageOf', () => {
  it('says who asks what, and links to the stream page where the owners decide', () => {
    const m = messageOf('access.requested', access({ actor: { name: 'Rita Requester', email: 'rita@example.com' } }), PORTAL);
    expect(m.subject).toBe('billing asks to consume from payments in dev');
    expect(m.text).toContain('Rita Requester asked for Billing (billing) to consume from the stream payments in Development.');
    expect(m.link).toBe('https://portal.example.com/streams/s1?tab=environments');
    expect(m.text.endsWith(`Open it in the portal: ${m.link}`)).toBe(true);
    expect(m.html).toContain('<a href="https://portal.example.com/streams/s1?tab=environments">');
  });

  it('says who decided, with the reason, and links to the application', () => {
    const m = messageOf('access.denied', access({ accessType: 'PRODUCER', reason: 'Writes go through the ledger' }), PORTAL);
    expect(m.subject).toBe('Access denied: billing producing to payments in dev');
    expect(m.text).toContain('Billing (billing) may not produce to the stream payments in Development: denied by Sam Stream.');
    expect(m.text).toContain('The reason given: Writes go through the ledger');
    expect(m.link).toBe('https://portal.example.com/applications/a1');
    expect(messageOf('access.approved', access(), PORTAL).text).toContain('may now consume from the stream payments');
  });

  it('names when access ends', () => {
    const m = messageOf('access.expiring', access({ expiresAt: new Date('2026-12-03T10:15:00Z'), actor: null }), PORTAL);
    expect(m.subject).toBe('Access ends 2026-12-03 10:15 UTC: billing consuming from payments');
    expect(messageOf('access.expired', access({ expiresAt: new Date('2026-12-03T10:15:00Z'), actor: null }), PORTAL).text).toContain('has ended (2026-12-03 10:15 UTC)');
  });

  it("says a deployment's state and its error", () => {
    const m = messageOf('deployment.failed', deployment({ error: 'Connector class not found' }), PORTAL);
    expect(m.subject).toBe('Deployment of billing in dev failed');
    expect(m.text).toContain('The deployment of Billing (billing) in Development failed.');
    expect(messageOf('deployment.started', deployment(), PORTAL).text).toContain('The deployment of Billing (billing) in Development started by Ann App.');
    expect(m.text).toContain('The error: Connector class not found');
  });

  it('has a message for every event', () => {
    for (const event of NOTIFICATION_EVENTS) {
      const m = messageOf(event, event.startsWith('deployment') ? deployment() : access(), PORTAL);
      expect(m.subject.length, event).toBeGreaterThan(10);
      expect(m.text, event).toContain('Open it in the portal: https://portal.example.com/');
    }
  });

  it('lets no name start another header or inject markup', () => {
    const hostile = access({ application: { uid: 'a1', name: 'Evil\r\nBcc: all@example.com', shortName: 'evil\nX-Spam: 1' }, reason: '<script>alert(1)</script>' });
    const m = messageOf('access.denied', hostile, PORTAL);
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.subject).toBe('Access denied: evil X-Spam: 1 consuming from payments in dev');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;');
    expect(oneLine('a\u2028b\u0000c\r\n d')).toBe('a bc  d');
  });
});
