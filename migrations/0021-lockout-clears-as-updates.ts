/**
 * A cleared sign-in lockout is an UPDATED of the User (the specification's audit actions have no action of its
 * own). The entries written as USER_LOCKOUT_CLEARED become that UPDATED, their details `{failures, lockedUntil}`
 * the change `{lockout: {old: {failures, lockedUntil}, new: {failures: 0, lockedUntil: null}}}`, so that a client
 * generated from the specification reads every entry. Details are JSON text on every database: each row is
 * rewritten here, in batches, rather than by a dialect's JSON functions.
 */
import { QueryTypes, type QueryInterface } from 'sequelize';

type Ctx = { context: QueryInterface };

const CLEARED = 'USER_LOCKOUT_CLEARED';

type Details = Record<string, unknown>;

const parse = (text: string | null): Details | null => (text === null ? null : JSON.parse(text) as Details);

function asChange(details: Details | null): Details {
  const old = { failures: details?.failures ?? null, lockedUntil: details?.lockedUntil ?? null };
  return { lockout: { old, new: { failures: 0, lockedUntil: null } } };
}

/** The change back to what 7.1.0 wrote, or null: an UPDATED whose details are not a lockout's alone. */
function asCleared(details: Details | null): Details | null {
  const lockout = details?.lockout as { old?: Details } | undefined;
  if (!details || Object.keys(details).length !== 1 || !lockout?.old) return null;
  return { failures: lockout.old.failures ?? null, lockedUntil: lockout.old.lockedUntil ?? null };
}

/** Each entry `WHERE` selects, `rewrite` answering its new action and details (or null to leave it), by uid in batches. */
async function rewriteEntries(qi: QueryInterface, where: string, replacements: Record<string, unknown>,
  rewrite: (details: Details | null) => { action: string; details: Details } | null): Promise<void> {
  const sequelize = qi.sequelize;
  let after = '';
  for (;;) {
    const rows = await sequelize.query<{ uid: string; details: string | null }>(
      `SELECT uid, details FROM audit_events WHERE ${where} AND uid > :after ORDER BY uid LIMIT 1000`,
      { replacements: { ...replacements, after }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const next = rewrite(parse(row.details));
      if (!next) continue;
      await sequelize.query('UPDATE audit_events SET action = :action, details = :details WHERE uid = :uid', {
        replacements: { action: next.action, details: JSON.stringify(next.details), uid: row.uid },
      });
    }
    after = rows[rows.length - 1].uid;
  }
}

export async function up({ context: qi }: Ctx): Promise<void> {
  await rewriteEntries(qi, 'action = :action', { action: CLEARED }, (details) => ({ action: 'UPDATED', details: asChange(details) }));
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await rewriteEntries(qi, 'action = :action AND resource_type = :type', { action: 'UPDATED', type: 'User' }, (details) => {
    const cleared = asCleared(details);
    return cleared && { action: CLEARED, details: cleared };
  });
}
