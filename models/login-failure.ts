/**
 * `login_failures`: the failed sign-ins of each account (auth/brute-force.ts holds the rules). Every host and worker
 * on the database counts into the same row, so each change is one statement that works on the stored value —
 * never a read, a sum in this process, and a write that could lose a concurrent failure.
 */
import { DataTypes, Op, QueryTypes, UniqueConstraintError, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';

export type LoginFailureRow = Model & { userUid: string; tenantUid: string; failures: number; lastFailureAt: Date; lockedUntil: Date | null };

export function defineLoginFailure(sequelize: Sequelize): ModelStatic<LoginFailureRow> {
  return sequelize.define('LoginFailure', {
    userUid: { type: DataTypes.CHAR(32), primaryKey: true },
    tenantUid: { type: DataTypes.CHAR(32), allowNull: false },
    failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    lastFailureAt: { type: DataTypes.DATE(3), allowNull: false },
    lockedUntil: { type: DataTypes.DATE(3), allowNull: true },
  }, { tableName: 'login_failures', timestamps: false }) as ModelStatic<LoginFailureRow>;
}

type Failures = ModelStatic<LoginFailureRow>;

export function findLoginFailure(model: Failures, userUid: string, transaction?: Transaction): Promise<LoginFailureRow | null> {
  return model.findByPk(userUid, { transaction });
}

/**
 * Counts one failure of the account at `now` and answers the row after it. A count whose last failure came before
 * `resetBefore` starts again at 1 and loses its lock. `last_failure_at` is assigned last: MySQL and MariaDB
 * evaluate assignments left to right, and the two CASEs must see the previous failure's time.
 */
export async function countLoginFailure(model: Failures, account: { userUid: string; tenantUid: string }, now: Date, resetBefore: Date): Promise<LoginFailureRow> {
  const sequelize = model.sequelize!;
  const increment = async () => {
    const [, counted] = await sequelize.query(
      'UPDATE login_failures SET'
      + ' failures = CASE WHEN last_failure_at < :resetBefore THEN 1 ELSE failures + 1 END,'
      + ' locked_until = CASE WHEN last_failure_at < :resetBefore THEN NULL ELSE locked_until END,'
      + ' last_failure_at = :now'
      + ' WHERE user_uid = :userUid',
      { replacements: { resetBefore, now, userUid: account.userUid }, type: QueryTypes.UPDATE },
    );
    return counted;
  };
  if ((await increment()) === 0) {
    try {
      await model.create({ ...account, failures: 1, lastFailureAt: now, lockedUntil: null });
    } catch (err) {
      // Another process counted this account's first failure in between: count into its row.
      if (!(err instanceof UniqueConstraintError)) throw err;
      await increment();
    }
  }
  // At least this failure's count: concurrent ones may have added theirs since.
  return (await model.findByPk(account.userUid))!;
}

/** Locks the account until `until`, unless it is already locked for longer (a concurrent failure counted further). */
export async function extendLock(model: Failures, userUid: string, until: Date): Promise<void> {
  await model.update({ lockedUntil: until }, {
    where: { userUid, [Op.or]: [{ lockedUntil: null }, { lockedUntil: { [Op.lt]: until } }] },
  });
}

/** Forgets the account's failures (a successful sign-in, a tenant admin's clearing); answers whether there were any. */
export async function clearLoginFailures(model: Failures, userUid: string, transaction?: Transaction): Promise<boolean> {
  return (await model.destroy({ where: { userUid }, transaction })) > 0;
}
