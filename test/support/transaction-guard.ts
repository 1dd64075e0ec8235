/**
 * A write holds one pooled connection for its transaction; a statement it sends outside that transaction needs a
 * second one, and as many concurrent writes as the pool has connections then wait on each other until the pool
 * gives up (every request 503). Every statement sent from inside an open managed transaction without it is recorded
 * here, with where it came from; a file whose service sent one fails (test/support/app).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sequelize, Transaction } from 'sequelize';

export interface TransactionGuard { violations: string[] }

export function transactionGuard(sequelize: Sequelize): TransactionGuard {
  const inside = new AsyncLocalStorage<Transaction>();
  const violations: string[] = [];
  const busy = new WeakMap<Transaction, string[]>();
  const postgres = sequelize.getDialect() === 'postgres';
  const open = sequelize.transaction.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  const query = sequelize.query.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(sequelize, {
    transaction: (...args: unknown[]) => {
      const work = args[args.length - 1];
      if (typeof work !== 'function') return open(...args);
      return open(...args.slice(0, -1), (t: Transaction) => inside.run(t, () => work(t)));
    },
    query: (sql: unknown, options?: { transaction?: Transaction | null }) => {
      const held = inside.getStore();
      // Work the transaction's callback started but did not await may run after it ended: not a second connection held.
      if (held && !(held as { finished?: string }).finished && !options?.transaction) violations.push(describe(sql));
      const mine = options?.transaction;
      if (!mine || !postgres) return query(sql, options);
      // One connection runs one statement at a time: pg queues a second one (deprecated, gone in pg 9). Checked on
      // PostgreSQL only: the MySQL-family drivers queue by design, and on MariaDB the wizard's dry run showed a
      // ROLLBACK sent while an INSERT of the same transaction had not settled (not on PostgreSQL; not yet explained).
      const running = busy.get(mine) ?? [];
      if (running.length > 0) violations.push(`concurrent statements on one transaction: ${describe(sql)}\n  while running: ${running.map((r) => r.slice(0, 120)).join(' | ')}`);
      const text = textOf(sql);
      busy.set(mine, [...running, text]);
      return query(sql, options).finally(() => {
        const left = [...(busy.get(mine) ?? [])];
        left.splice(left.indexOf(text), 1);
        busy.set(mine, left);
      });
    },
  });
  return { violations };
}

const textOf = (sql: unknown): string => (typeof sql === 'string' ? sql : String((sql as { query?: string })?.query ?? sql));

function describe(sql: unknown): string {
  const text = textOf(sql);
  const ours = (new Error().stack ?? '').split('\n').slice(2)
    .filter((line) => line.includes('/') && !line.includes('node_modules') && !line.includes('node:') && !line.includes('transaction-guard'))
    .slice(0, 4).map((line) => line.trim());
  return `${text.slice(0, 160)}\n    ${ours.join('\n    ')}`;
}
