/**
 * The pure parts of `npm run admin -- notifications` and of the outbox's states: which invocations are refused
 * before a database is opened, what a payload is summarised as (never its text or HTML), and the state of a row as
 * the metric and the command name it.
 */
import { describe, expect, it } from 'vitest';
import { deliveryState } from '../../models/notification';
import { payloadSummary, validateNotifications } from '../../scripts/admin-notifications';
import { UsageError } from '../../scripts/admin-errors';

const UID = 'a'.repeat(32);

describe('validateNotifications', () => {
  it.each([
    [[], {}],
    [['list'], {}],
    [['list'], { status: 'failed', limit: '1000', json: true }],
    [[], { status: 'pending', limit: '1' }],
    [['show', UID], {}],
    [['show', UID], { json: true }],
    [['retry', UID], {}],
    [['retry'], { dead: true }],
  ])('accepts %j %j', (args, options) => {
    expect(() => validateNotifications(args, options)).not.toThrow();
  });

  it.each([
    [['lists'], {}, "notifications: unknown subcommand 'lists' (list, show <uid>, retry <uid>, retry --dead)"],
    [['list', 'x'], {}, 'notifications list takes no arguments'],
    [[], { status: 'Pending' }, "--status must be one of pending, failed, sent, dead: 'Pending'"],
    [[], { limit: '1001' }, "--limit must be a whole number from 1 to 1000: '1001'"],
    [[], { limit: '2.5' }, "--limit must be a whole number from 1 to 1000: '2.5'"],
    [[], { dead: true }, 'notifications list takes no --dead'],
    [['show'], {}, 'notifications show takes <uid>'],
    [['show', UID.toUpperCase()], {}, `not a notification uid (32 hexadecimal digits): '${UID.toUpperCase()}'`],
    [['show', UID], { limit: '5' }, 'notifications show takes no --limit'],
    [['retry'], {}, 'notifications retry takes <uid> or --dead'],
    [['retry', UID], { dead: true }, 'notifications retry takes <uid> or --dead, not both'],
    [['retry', UID], { json: true }, 'notifications retry takes no --json'],
    [['retry', 'x'], {}, "not a notification uid (32 hexadecimal digits): 'x'"],
  ])('refuses %j %j: %s', (args, options, message) => {
    expect(() => validateNotifications(args, options)).toThrow(new UsageError(message));
  });
});

describe('payloadSummary', () => {
  it.each([
    [{ to: { name: 'Sam', email: 'sam@example.com' }, subject: 'Access approved', text: 'secret-ish body', html: '<p>body</p>' }, 'subject: Access approved'],
    [{ specversion: '1.0', type: 'platform.access.approved', id: 'e1', subject: 'g1', data: { grant: 'g1', link: 'https://portal.example.com/x' } }, 'CloudEvent platform.access.approved, id e1'],
    [{ specversion: '1.0', type: 'platform.access.revoked' }, 'CloudEvent platform.access.revoked'],
    [{ type: 'access.denied' }, '24 characters'],
    [{ something: 'else' }, '20 characters'],
    [null, '4 characters'],
  ])('%j → %s', (payload, summary) => {
    expect(payloadSummary(JSON.stringify(payload))).toBe(summary);
  });

  it('says of a payload that is not JSON only its length', () => {
    expect(payloadSummary('<html>hello</html>')).toBe('not JSON (18 characters)');
  });
});

describe('deliveryState', () => {
  it.each([
    ['pending', 0, 'pending'], ['pending', 1, 'failed'], ['pending', 30, 'failed'],
    ['sent', 1, 'sent'], ['sent', 3, 'sent'], ['dead', 30, 'dead'], ['dead', 0, 'dead'],
  ] as const)('%s after %i attempts is %s', (status, attempts, state) => {
    expect(deliveryState({ status, attempts })).toBe(state);
  });
});
