/**
 * `npm run admin -- notifications`: the notification outbox (issue 44) read and retried without the API. `list`
 * (the default) shows the newest rows first, `show <uid>` one row's every column, `retry <uid>` or `retry --dead`
 * makes messages due again at once. A payload is never printed whole: a mail's subject or a CloudEvent's type and
 * id say which message it is, its text, HTML and data stay in the database. The statuses are the metric's
 * (models/notification `deliveryState`): pending (not tried yet), failed (waiting for a retry), sent, dead.
 */
import type { ParseArgsConfig } from 'node:util';
import { Op } from 'sequelize';
import {
  countByState, deliveryState, DELIVERY_STATES, findNotification, listNotifications, retryDead, retryNotification,
  type DeliveryState, type NotificationRow,
} from '../models/notification';
import type { AdminDatabase } from './admin-database';
import { AdminError, UsageError } from './admin-errors';

export const NOTIFICATIONS_SYNOPSIS = '[show <uid> | retry <uid>|--dead]';
export const NOTIFICATIONS_SUMMARY = 'the notification outbox, newest first (--status pending|failed|sent|dead, --limit <n>, --json); one message shown, or made due again now';
export const NOTIFICATIONS_OPTIONS = {
  status: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, dead: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type Options = Record<string, string | boolean | undefined>;
export type Table = (header: string[] | null, rows: string[][]) => string;
export interface NotificationsContext { db: AdminDatabase; args: string[]; options: Options; print: (text: string) => void }

const DEFAULT_LIMIT = 50;
const MOST = 1000;
const UID = /^[0-9a-f]{32}$/;

/** What each subcommand accepts besides its arguments. */
const ALLOWED: Record<string, string[]> = { list: ['status', 'limit', 'json'], show: ['json'], retry: ['dead'] };

/** Refuses a wrong invocation before any database is opened. */
export function validateNotifications(args: string[], options: Options): void {
  const [sub = 'list', uid] = args;
  if (!Object.hasOwn(ALLOWED, sub)) throw new UsageError(`notifications: unknown subcommand '${sub}' (list, show <uid>, retry <uid>, retry --dead)`);
  const refused = Object.keys(options).filter((o) => options[o] !== undefined && !ALLOWED[sub].includes(o));
  if (refused.length > 0) throw new UsageError(`notifications ${sub} takes no --${refused[0]}`);
  if (sub === 'list') return validateList(args, options);
  if (sub === 'retry' && options.dead) {
    if (uid !== undefined) throw new UsageError('notifications retry takes <uid> or --dead, not both');
    return;
  }
  if (uid === undefined) throw new UsageError(`notifications ${sub} takes <uid>${sub === 'retry' ? ' or --dead' : ''}`);
  if (!UID.test(uid)) throw new UsageError(`not a notification uid (32 hexadecimal digits): '${uid}'`);
}

function validateList(args: string[], options: Options): void {
  if (args.length > 1) throw new UsageError('notifications list takes no arguments');
  const status = options.status as string | undefined;
  if (status !== undefined && !(DELIVERY_STATES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${DELIVERY_STATES.join(', ')}: '${status}'`);
  const limit = options.limit as string | undefined;
  if (limit !== undefined && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= MOST)) throw new UsageError(`--limit must be a whole number from 1 to ${MOST}: '${limit}'`);
}

export async function runNotifications(ctx: NotificationsContext, table: Table): Promise<void> {
  const [sub = 'list', uid] = ctx.args;
  if (sub === 'show') return show(ctx, uid, table);
  if (sub === 'retry') return retry(ctx, uid);
  return list(ctx, table);
}

/** Which message a payload is, never its body: a mail's subject, a CloudEvent's type and id. */
export function payloadSummary(payload: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return `not JSON (${payload.length} characters)`;
  }
  const p = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  // A webhook's body is a CloudEvent, whose `subject` is the grant or deployment: its type and id say more.
  if (typeof p.specversion === 'string' && typeof p.type === 'string') return `CloudEvent ${p.type}${typeof p.id === 'string' ? `, id ${p.id}` : ''}`;
  if (typeof p.subject === 'string') return `subject: ${p.subject}`;
  return `${payload.length} characters`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A row as the command shows it: every column but the payload, which is summarised; the tenant by its short name. */
function described(row: NotificationRow, tenant: string | undefined) {
  return {
    uid: row.uid, status: deliveryState(row), event: row.event, channel: row.channel, recipient: row.recipient, tenant: tenant ?? null,
    tenantUid: row.tenantUid, payload: payloadSummary(row.payload), attempts: row.attempts, createdAt: iso(row.createdAt),
    dueAt: iso(row.dueAt), firstAttemptAt: iso(row.firstAttemptAt), lastAttemptAt: iso(row.lastAttemptAt), lastStatus: row.lastStatus,
    lastError: row.lastError, sentAt: iso(row.sentAt), leaseUntil: iso(row.leaseUntil),
  };
}

async function tenantNames(db: AdminDatabase, rows: NotificationRow[]): Promise<Map<string, string>> {
  const uids = [...new Set(rows.map((r) => r.tenantUid))];
  if (uids.length === 0) return new Map();
  const tenants = await db.models.Tenant.findAll({ attributes: ['uid', 'shortName'], where: { uid: { [Op.in]: uids } } });
  return new Map(tenants.map((t) => [t.uid as string, t.shortName as string]));
}

/** The one moment that says most of where a row stands: when it is due, was sent, or died. */
function when(row: ReturnType<typeof described>): string {
  if (row.status === 'sent') return `sent ${row.sentAt}`;
  if (row.status === 'dead') return `dead since ${row.lastAttemptAt ?? row.dueAt}`;
  return `due ${row.dueAt}`;
}

async function list({ db, options, print }: NotificationsContext, table: Table): Promise<void> {
  const state = options.status as DeliveryState | undefined;
  const limit = options.limit === undefined ? DEFAULT_LIMIT : Number(options.limit);
  const rows = await listNotifications(db.models.Notification, { state, limit });
  const tenants = await tenantNames(db, rows);
  const shown = rows.map((r) => described(r, tenants.get(r.tenantUid)));
  if (options.json) return print(`${JSON.stringify(shown, null, 2)}\n`);
  const counts = await countByState(db.models.Notification);
  print(table(
    ['UID', 'CREATED', 'STATUS', 'ATTEMPTS', 'EVENT', 'CHANNEL', 'TENANT', 'RECIPIENT', 'WHEN'],
    shown.map((r) => [r.uid, r.createdAt!, r.status, String(r.attempts), r.event, r.channel, r.tenant ?? r.tenantUid, r.recipient, when(r)]),
  ));
  const total = DELIVERY_STATES.map((s) => `${counts[s]} ${s}`).join(', ');
  print(`${shown.length} shown${state ? ` (${state})` : ''}, newest first; in the outbox: ${total}\n`);
}

async function show({ db, options, print }: NotificationsContext, uid: string, table: Table): Promise<void> {
  const row = await findNotification(db.models.Notification, uid);
  if (!row) throw new AdminError(`no notification ${uid} (npm run admin -- notifications lists them)`);
  const shown = described(row, (await tenantNames(db, [row])).get(row.tenantUid));
  if (options.json) return print(`${JSON.stringify(shown, null, 2)}\n`);
  print(table(null, Object.entries(shown).map(([key, value]) => [key, value === null ? '-' : String(value)])));
}

async function retry({ db, options, print }: NotificationsContext, uid: string | undefined): Promise<void> {
  if (options.dead) {
    const n = await retryDead(db.models.Notification);
    return print(`${n} dead notification${n === 1 ? '' : 's'} due again now, each with a new day of retries\n`);
  }
  const { outcome, row } = await retryNotification(db.models.Notification, uid!);
  if (outcome === 'missing') throw new AdminError(`no notification ${uid} (npm run admin -- notifications lists them)`);
  if (outcome === 'sent') throw new AdminError(`notification ${uid} was sent at ${iso(row!.sentAt)}: a sent notification is not sent again`);
  if (outcome === 'leased') {
    throw new AdminError(`notification ${uid} is being delivered by a host now (its claim holds until ${iso(row!.leaseUntil)}): look again after that`);
  }
  print(`Notification ${uid} (${row!.event} to ${row!.recipient}) is due again now, with a new day of retries\n`);
}
