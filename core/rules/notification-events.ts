/**
 * What each notification says and to whom (issue 44): the events, their recipients, and one message per event as
 * plain text and HTML, with the link to the portal's page where the person acts. Pure: the caller gives the facts
 * (names, addresses, the portal's root); nothing here reads a table or sends anything.
 */
import { escapeHtml } from '../html';

export const NOTIFICATION_EVENTS = [
  'access.requested', 'access.approved', 'access.denied', 'access.revoked', 'access.cancelled', 'access.expiring', 'access.expired',
  'deployment.started', 'deployment.stopped', 'deployment.failed',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export interface Person { name: string; email: string | null }
/** An owners group: its own address when it has one, else its members are written to. */
export interface Team { name: string; email: string | null; members: Person[] }

interface Common {
  application: { uid: string; name: string; shortName: string };
  environment: { uid: string; name: string; shortName: string };
  applicationOwners: Team;
  /** Who did it; null when the platform did (an expiry). */
  actor: Person | null;
}
export interface AccessFacts extends Common {
  kind: 'access';
  stream: { uid: string; name: string };
  accessType: 'CONSUMER' | 'PRODUCER';
  streamOwners: Team;
  requester: Person | null;
  reason?: string | null;
  expiresAt?: Date | null;
}
export interface DeploymentFacts extends Common {
  kind: 'deployment';
  error?: string | null;
}
export type NotificationFacts = AccessFacts | DeploymentFacts;

export interface Recipients { to: Person[]; skipped: number }
export interface Message { subject: string; text: string; html: string; link: string }

/** A name or a value on one line: nothing typed into a name can start another mail header. */
export function oneLine(value: string): string {
  return value.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

function teamAddresses(team: Team): Recipients {
  if (team.email) return { to: [{ name: team.name, email: team.email }], skipped: 0 };
  const to = team.members.filter((m) => m.email);
  return { to, skipped: team.members.length - to.length };
}

/**
 * Who hears of `event`: a request → the stream's owners; a decision or a cancellation → the requester and the
 * application's owners; an expiry and a deployment → the application's owners. Each address once (ignoring case); a
 * person without an address is skipped and counted.
 */
export function recipientsOf(event: NotificationEvent, facts: NotificationFacts): Recipients {
  const parts: Recipients[] = [];
  if (facts.kind === 'access' && event === 'access.requested') parts.push(teamAddresses(facts.streamOwners));
  else {
    if (facts.kind === 'access' && ['access.approved', 'access.denied', 'access.revoked', 'access.cancelled'].includes(event) && facts.requester) {
      parts.push(facts.requester.email ? { to: [facts.requester], skipped: 0 } : { to: [], skipped: 1 });
    }
    parts.push(teamAddresses(facts.applicationOwners));
  }
  const seen = new Set<string>();
  const to: Person[] = [];
  for (const p of parts.flatMap((r) => r.to)) {
    const key = p.email!.trim().toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      to.push(p);
    }
  }
  return { to, skipped: parts.reduce((n, r) => n + r.skipped, 0) };
}

const VERB = { CONSUMER: ['consume from', 'consumes from', 'consuming from'], PRODUCER: ['produce to', 'produces to', 'producing to'] } as const;

/** The sentence, the subject and the portal page of each event. */
function wording(event: NotificationEvent, f: NotificationFacts, portalRoot: string): { subject: string; lines: string[]; link: string } {
  const by = f.actor ? ` by ${oneLine(f.actor.name)}` : '';
  const app = `${oneLine(f.application.name)} (${oneLine(f.application.shortName)})`;
  const where = oneLine(f.environment.name);
  const appPage = `${portalRoot}/applications/${f.application.uid}`;
  if (f.kind === 'deployment') {
    const what = { 'deployment.started': 'started', 'deployment.stopped': 'stopped', 'deployment.failed': 'failed' }[event as 'deployment.started'] ?? 'changed';
    return {
      subject: `Deployment of ${oneLine(f.application.shortName)} in ${oneLine(f.environment.shortName)} ${what}`,
      // A failure is the deployment's own, whoever started it.
      lines: [`The deployment of ${app} in ${where} ${what}${event === 'deployment.failed' ? '' : by}.`, ...(f.error ? [`The error: ${oneLine(f.error)}`] : [])],
      link: appPage,
    };
  }
  const [ask, does, doing] = VERB[f.accessType];
  const stream = oneLine(f.stream.name);
  const reason = f.reason ? [`The reason given: ${oneLine(f.reason)}`] : [];
  const ends = f.expiresAt ? f.expiresAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : 'soon';
  switch (event) {
    case 'access.requested':
      return {
        subject: `${oneLine(f.application.shortName)} asks to ${ask} ${stream} in ${oneLine(f.environment.shortName)}`,
        lines: [`${f.actor ? oneLine(f.actor.name) : 'Someone'} asked for ${app} to ${ask} the stream ${stream} in ${where}. It waits for a decision of the stream's owners.`],
        link: `${portalRoot}/streams/${f.stream.uid}?tab=environments`,
      };
    case 'access.approved': case 'access.denied': case 'access.revoked': {
      const what = event.slice('access.'.length);
      return {
        subject: `Access ${what}: ${oneLine(f.application.shortName)} ${doing} ${stream} in ${oneLine(f.environment.shortName)}`,
        lines: [`${app} ${what === 'approved' ? 'may now' : 'may not'} ${ask} the stream ${stream} in ${where}: ${what}${by}.`, ...reason],
        link: appPage,
      };
    }
    case 'access.cancelled':
      return {
        subject: `Request cancelled: ${oneLine(f.application.shortName)} ${doing} ${stream} in ${oneLine(f.environment.shortName)}`,
        lines: [`The request for ${app} to ${ask} the stream ${stream} in ${where} was cancelled${by}.`],
        link: appPage,
      };
    case 'access.expiring':
      return {
        subject: `Access ends ${ends}: ${oneLine(f.application.shortName)} ${doing} ${stream}`,
        lines: [`${app} ${does} the stream ${stream} in ${where} until ${ends}. Ask again before then to keep it.`],
        link: appPage,
      };
    default:
      return {
        subject: `Access ended: ${oneLine(f.application.shortName)} ${doing} ${stream} in ${oneLine(f.environment.shortName)}`,
        lines: [`The access of ${app} to ${ask} the stream ${stream} in ${where} has ended (${ends}).`],
        link: appPage,
      };
  }
}

/** One message per event: the same words as text and as HTML (every value escaped), the portal's page linked. */
export function messageOf(event: NotificationEvent, facts: NotificationFacts, portalRoot: string): Message {
  const { subject, lines, link } = wording(event, facts, portalRoot.replace(/\/+$/, ''));
  const text = [...lines, '', `Open it in the portal: ${link}`].join('\n');
  const html = [...lines.map((l) => `<p>${escapeHtml(l)}</p>`), `<p><a href="${escapeHtml(link)}">Open it in the portal</a></p>`].join('\n');
  return { subject: oneLine(subject), text, html, link };
}
