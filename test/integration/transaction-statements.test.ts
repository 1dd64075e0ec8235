/**
 * A transaction's BEGIN, COMMIT and ROLLBACK (on PostgreSQL sent by models/pg-transactions, elsewhere by Sequelize)
 * do what Sequelize's do on whichever database runs the suite: what a committed transaction wrote stays, what a
 * rolled-back or failed one wrote is gone, a savepoint rolls back alone, and the query hooks see each statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';

let app: TestApp;
let t: TestTenant;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('txst'));
}, 120_000);
afterAll(async () => app?.stop());

const uid = () => randomUUID().replaceAll('-', '');
const cluster = (name: string) => ({ uid: uid(), tenantUid: t.tenant.uid, name, bootstrapServers: ['tx:9092'], createdBy: 'test', modifiedBy: 'test' });
const exists = async (name: string) => (await app.models.Cluster.count({ where: { tenantUid: t.tenant.uid, name } })) === 1;

describe('transaction statements', () => {
  it('commit keeps what the transaction wrote; the hooks see BEGIN and COMMIT on its connection', async () => {
    const seen: string[] = [];
    const hook = (_options: unknown, query: { sql?: string }) => { seen.push(String(query.sql)); };
    app.models.sequelize.addHook('afterQuery', 'tx-test', hook as never);
    try {
      await app.models.sequelize.transaction(async (transaction) => app.models.Cluster.create(cluster('tx-committed'), { transaction }));
    } finally {
      app.models.sequelize.removeHook('afterQuery', 'tx-test');
    }
    expect(await exists('tx-committed')).toBe(true);
    expect(seen[0]).toMatch(/^START TRANSACTION/);
    expect(seen.at(-1)).toMatch(/^COMMIT/);
  });

  it('an error inside rolls back what was written, and the connection serves the next transaction', async () => {
    await expect(app.models.sequelize.transaction(async (transaction) => {
      await app.models.Cluster.create(cluster('tx-rolled-back'), { transaction });
      await app.models.Cluster.create({ ...cluster('tx-clash'), uid: undefined, name: null } as never, { transaction });
    })).rejects.toThrow();
    expect(await exists('tx-rolled-back')).toBe(false);
    await app.models.sequelize.transaction(async (transaction) => app.models.Cluster.create(cluster('tx-after'), { transaction }));
    expect(await exists('tx-after')).toBe(true);
  });

  it('an explicit rollback; a savepoint (nested transaction) rolls back alone', async () => {
    const outer = await app.models.sequelize.transaction();
    await app.models.Cluster.create(cluster('tx-explicit'), { transaction: outer });
    await outer.rollback();
    expect(await exists('tx-explicit')).toBe(false);

    await app.models.sequelize.transaction(async (transaction) => {
      await app.models.Cluster.create(cluster('tx-outer'), { transaction });
      const inner = await app.models.sequelize.transaction({ transaction });
      await app.models.Cluster.create(cluster('tx-inner'), { transaction: inner });
      await inner.rollback();
    });
    expect(await exists('tx-outer')).toBe(true);
    expect(await exists('tx-inner')).toBe(false);
  });

  it('a statement that fails in the database aborts the transaction; its rollback leaves nothing', async () => {
    const transaction = await app.models.sequelize.transaction();
    await app.models.Cluster.create(cluster('tx-before-failure'), { transaction });
    await expect(app.models.sequelize.query('SELECT * FROM no_such_table', { transaction })).rejects.toThrow();
    await transaction.rollback();
    expect(await exists('tx-before-failure')).toBe(false);
  });
});
