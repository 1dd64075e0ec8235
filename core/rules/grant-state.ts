/**
 * The access grant state machine (docs/contract.md §6.1), one for both `/application_access` and
 * `/application_access_grants`: data (the transitions) plus one decision function. Pure: the caller's capacities
 * come in as booleans, the database compare-and-set and the audit write happen elsewhere.
 */
import { hasExpired } from './access-duration';

export const GRANT_STATUSES = ['Pending', 'Approved', 'Rejected', 'Revoked', 'Cancelled'] as const;
export type GrantStatus = (typeof GRANT_STATUSES)[number];

export const GRANT_ACTIONS = ['approve', 'deny', 'cancel', 'revoke'] as const;
export type GrantAction = (typeof GRANT_ACTIONS)[number];

/** Open grants block a second request for the same application, stream, environment and access type. */
export const OPEN_STATUSES: readonly GrantStatus[] = ['Pending', 'Approved'];
export const isOpen = (status: GrantStatus) => OPEN_STATUSES.includes(status);

/**
 * Approved and in effect at `now`: what a grant's `approved` says and what the graphs draw as a producer or
 * consumer. An Approved grant past its `expiresAt` gives no access, even before the sweep revokes it.
 */
export function grantInEffect(grant: { status: string; expiresAt: Date | null }, now: Date): boolean {
  return grant.status === 'Approved' && !hasExpired(grant.expiresAt, now);
}

/** What the caller is to this grant: an approver (stream editor) and/or an app editor (application editor). */
export interface Capacities { approver: boolean; appEditor: boolean }

interface Move { from: GrantStatus; to: GrantStatus; audit: string }

/** Every legal move, by action; `who` lists the capacities that may make it. */
const MOVES: Record<GrantAction, { who: Array<keyof Capacities>; moves: Move[]; verb: string }> = {
  approve: { who: ['approver'], verb: 'approved', moves: [{ from: 'Pending', to: 'Approved', audit: 'APPLICATION_ACCESS_APPROVED' }] },
  deny: { who: ['approver'], verb: 'denied', moves: [{ from: 'Pending', to: 'Rejected', audit: 'APPLICATION_ACCESS_DENIED' }] },
  cancel: { who: ['appEditor'], verb: 'cancelled', moves: [{ from: 'Pending', to: 'Cancelled', audit: 'APPLICATION_ACCESS_CANCELLED' }] },
  revoke: { who: ['approver', 'appEditor'], verb: 'revoked', moves: [{ from: 'Approved', to: 'Revoked', audit: 'APPLICATION_ACCESS_REVOKED' }] },
};

export type Decision =
  | { kind: 'move'; action: GrantAction; from: GrantStatus; to: GrantStatus; audit: string }
  /** Nothing to do and nothing wrong (cancelling a grant that is already over). */
  | { kind: 'unchanged' }
  | { kind: 'forbidden'; message: string }
  | { kind: 'illegal'; message: string };

export const CANCEL_APPROVED = 'Application Access Grant cannot be cancelled. Please Revoke first.';

/**
 * `POST {grant}/deny` denies a pending grant and revokes an approved one (docs/contract.md §5.14); every other endpoint
 * names its action.
 */
export function effectiveAction(requested: GrantAction, status: GrantStatus): GrantAction {
  return requested === 'deny' && status === 'Approved' ? 'revoke' : requested;
}

const TERMINAL: readonly GrantStatus[] = ['Rejected', 'Revoked', 'Cancelled'];

/** A grant's end (`expiresAt`, null for none) and the time of the decision: nothing is approved after its end. */
export interface Expiry { expiresAt: Date | null; now: Date }

/**
 * The outcome of `requested` on a grant in `status` by a caller with `caps`: rights first (403), then state (422).
 * A pending grant whose `expiresAt` has passed cannot be approved any more (renewal is a new request).
 */
export function decide(status: GrantStatus, requested: GrantAction, caps: Capacities, expiry?: Expiry): Decision {
  const action = effectiveAction(requested, status);
  const rule = MOVES[action];
  // A revoked grant was approved: whoever could deny (revoke) it then has lost a race to another revoke, a 422 and
  // not a 403 (the Terraform provider destroys a grant and its approval in parallel, both with `deny`).
  const who = action === 'deny' && status === 'Revoked' ? MOVES.revoke.who : rule.who;
  if (!who.some((w) => caps[w])) {
    const names = who.map((w) => (w === 'approver' ? 'the stream editors' : 'the application editors')).join(' or ');
    return { kind: 'forbidden', message: `Only ${names} may ${action} this access grant` };
  }
  const move = rule.moves.find((m) => m.from === status);
  if (move && action === 'approve' && expiry?.expiresAt && expiry.expiresAt.getTime() <= expiry.now.getTime()) {
    return { kind: 'illegal', message: `Application Access Grant cannot be approved after its expiresAt (${expiry.expiresAt.toISOString()}); request access again.` };
  }
  if (move) return { kind: 'move', action, ...move };
  if (action === 'cancel' && status === 'Approved') return { kind: 'illegal', message: CANCEL_APPROVED };
  if (action === 'cancel' && TERMINAL.includes(status)) return { kind: 'unchanged' };
  return { kind: 'illegal', message: `Application Access Grant cannot be ${rule.verb} in status ${status}.` };
}

/** The actions the caller may take on a grant in `status` (its action links). */
export function availableActions(status: GrantStatus, caps: Capacities, expiry?: Expiry): GrantAction[] {
  return GRANT_ACTIONS.filter((a) => {
    const d = decide(status, a, caps, expiry);
    return d.kind === 'move' && d.action === a;
  });
}

/** A new request: Pending, or Approved at once where the environment approves automatically (Private ones do). */
export function requestedStatus(environment: { authorizationIssuer: string; visibility: string }): GrantStatus {
  return environment.authorizationIssuer === 'Auto' || environment.visibility === 'Private' ? 'Approved' : 'Pending';
}
