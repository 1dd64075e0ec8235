/**
 * The grant state machine against docs/contract.md §6.1 / §5.14, every status × action × capacity. The expected table is
 * written from the contract's text, not derived from the implementation.
 */
import { describe, expect, it } from 'vitest';
import {
  availableActions, CANCEL_APPROVED, decide, GRANT_ACTIONS, GRANT_STATUSES, grantInEffect, isOpen, requestedStatus,
  type Capacities, type GrantAction, type GrantStatus,
} from '../../core/rules/grant-state';

const CALLERS: Record<string, Capacities> = {
  nobody: { approver: false, appEditor: false },
  approver: { approver: true, appEditor: false },
  appEditor: { approver: false, appEditor: true },
  both: { approver: true, appEditor: true },
};

/** Expected outcome per status and action, for a caller holding every capacity the move needs. */
const EXPECTED: Record<GrantStatus, Record<GrantAction, string>> = {
  Pending: { approve: '→ Approved', deny: '→ Rejected', cancel: '→ Cancelled', revoke: '422 revoked Pending' },
  Approved: { approve: '422 approved Approved', deny: '→ Revoked', cancel: `422 ${CANCEL_APPROVED}`, revoke: '→ Revoked' },
  Rejected: { approve: '422 approved Rejected', deny: '422 denied Rejected', cancel: 'unchanged', revoke: '422 revoked Rejected' },
  Revoked: { approve: '422 approved Revoked', deny: '422 denied Revoked', cancel: 'unchanged', revoke: '422 revoked Revoked' },
  Cancelled: { approve: '422 approved Cancelled', deny: '422 denied Cancelled', cancel: 'unchanged', revoke: '422 revoked Cancelled' },
};

/**
 * Who may: approve and deny a pending grant → approvers; cancel → app editors; revoke (and deny of an approved one)
 * → both; deny of a revoked grant → both too (it was a revoke that lost a race: 422, not 403).
 */
function allowed(status: GrantStatus, action: GrantAction, caps: Capacities): boolean {
  const revoking = action === 'revoke' || (action === 'deny' && (status === 'Approved' || status === 'Revoked'));
  if (revoking) return caps.approver || caps.appEditor;
  if (action === 'cancel') return caps.appEditor;
  return caps.approver;
}

function render(status: GrantStatus, action: GrantAction, caps: Capacities): string {
  const d = decide(status, action, caps);
  if (d.kind === 'move') return `→ ${d.to}`;
  if (d.kind === 'unchanged') return 'unchanged';
  if (d.kind === 'forbidden') return '403';
  const m = /^Application Access Grant cannot be (\w+) in status (\w+)\.$/.exec(d.message);
  return m ? `422 ${m[1]} ${m[2]}` : `422 ${d.message}`;
}

const cases = GRANT_STATUSES.flatMap((s) => GRANT_ACTIONS.flatMap((a) => Object.keys(CALLERS).map((c) => [s, a, c] as const)));

describe('decide: every status × action × caller', () => {
  it.each(cases)('%s, %s by %s', (status, action, caller) => {
    const caps = CALLERS[caller];
    const expected = allowed(status, action, caps) ? EXPECTED[status][action] : '403';
    expect(render(status, action, caps)).toBe(expected);
  });

  it('moves name their audit action', () => {
    const audit = (s: GrantStatus, a: GrantAction) => {
      const d = decide(s, a, CALLERS.both);
      return d.kind === 'move' ? d.audit : d.kind;
    };
    expect(audit('Pending', 'approve')).toBe('APPLICATION_ACCESS_APPROVED');
    expect(audit('Pending', 'deny')).toBe('APPLICATION_ACCESS_DENIED');
    expect(audit('Pending', 'cancel')).toBe('APPLICATION_ACCESS_CANCELLED');
    expect(audit('Approved', 'revoke')).toBe('APPLICATION_ACCESS_REVOKED');
    expect(audit('Approved', 'deny')).toBe('APPLICATION_ACCESS_REVOKED');
  });

  it('a refusal for rights names who may', () => {
    expect(decide('Pending', 'approve', CALLERS.appEditor)).toEqual({ kind: 'forbidden', message: 'Only the stream editors may approve this access grant' });
    expect(decide('Approved', 'revoke', CALLERS.nobody)).toEqual({ kind: 'forbidden', message: 'Only the stream editors or the application editors may revoke this access grant' });
  });
});

describe('availableActions (the action links)', () => {
  it.each([
    ['Pending', 'approver', ['approve', 'deny']],
    ['Pending', 'appEditor', ['cancel']],
    ['Pending', 'both', ['approve', 'deny', 'cancel']],
    ['Pending', 'nobody', []],
    ['Approved', 'approver', ['revoke']],
    ['Approved', 'appEditor', ['revoke']],
    ['Approved', 'nobody', []],
    ['Rejected', 'both', []],
    ['Revoked', 'both', []],
    ['Cancelled', 'both', []],
  ] as const)('%s for %s → %j', (status, caller, actions) => {
    expect(availableActions(status, CALLERS[caller])).toEqual(actions);
  });
});

describe('requests', () => {
  it.each([
    [{ authorizationIssuer: 'Stream owner', visibility: 'Public' }, 'Pending'],
    [{ authorizationIssuer: 'Auto', visibility: 'Public' }, 'Approved'],
    [{ authorizationIssuer: 'Auto', visibility: 'Private' }, 'Approved'],
    [{ authorizationIssuer: 'Stream owner', visibility: 'Private' }, 'Approved'],
  ])('%j → %s', (environment, status) => {
    expect(requestedStatus(environment)).toBe(status);
  });

  it('only Pending and Approved grants are open', () => {
    expect(GRANT_STATUSES.filter(isOpen)).toEqual(['Pending', 'Approved']);
  });
});

describe('in effect (a grant\'s `approved`, and what the graphs draw)', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const at = (ms: number) => new Date(now.getTime() + ms);
  it.each(GRANT_STATUSES.flatMap((status) => [
    [status, null, status === 'Approved'],
    [status, at(1), status === 'Approved'],
    [status, at(0), false],
    [status, at(-1), false],
  ] as const))('%s ending %s → %s', (status, expiresAt, inEffect) => {
    expect(grantInEffect({ status, expiresAt }, now)).toBe(inEffect);
  });
});
