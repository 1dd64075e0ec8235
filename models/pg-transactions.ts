/**
 * A transaction's BEGIN, COMMIT and ROLLBACK on PostgreSQL as plain statements on its own connection, through
 * models/sequelize-adapter `onPooledConnection` (Sequelize's query hooks and logger see them as before), instead of
 * through `sequelize.query`, which for each of them copies its options twice, builds retry options, captures a
 * stack trace for an error it rarely throws and parses the answer for a model: on a create, a fifth of the API's
 * time in Sequelize (docs/adr/0012-request-path-at-defaults.md). A savepoint (a nested transaction) and every other
 * dialect keep Sequelize's own path.
 */
import { Transaction, type Sequelize } from 'sequelize';
import { isConnectionLost } from './db-errors';
import { onPooledConnection, sequelizeError } from './sequelize-adapter';

interface Generator {
  startTransactionQuery(t: Transaction): string;
  commitTransactionQuery(t: Transaction): string;
  rollbackTransactionQuery(t: Transaction): string;
}
type Step = (transaction: Transaction, options?: object) => Promise<unknown>;
interface TransactionSteps { startTransaction: Step; commitTransaction: Step; rollbackTransaction: Step; queryGenerator: Generator }
interface PgClient { query(text: string, callback: (err: Error | null) => void): void }
type Finished = { finished?: string; parent?: Transaction };

export function leanTransactionStatements(sequelize: Sequelize): void {
  const steps = sequelize.getQueryInterface() as unknown as TransactionSteps;
  const { startTransaction, commitTransaction, rollbackTransaction, queryGenerator } = steps;
  const send = (transaction: Transaction, sql: string) => onPooledConnection(sequelize, sql, isConnectionLost,
    (connection) => new Promise<void>((resolve, reject) => {
      (connection as PgClient).query(sql, (err) => {
        if (!err) resolve();
        else reject(isConnectionLost(err) ? err : sequelizeError(sequelize, err));
      });
    }), transaction);
  // Sequelize's own checks first (a transaction object, no parent): anything else takes its path unchanged.
  const plain = (transaction: Transaction) => transaction instanceof Transaction && !(transaction as Finished).parent;

  steps.startTransaction = function (transaction, options) {
    if (!plain(transaction)) return startTransaction.call(this, transaction, options);
    return send(transaction, queryGenerator.startTransactionQuery(transaction));
  };
  steps.commitTransaction = function (transaction, options) {
    if (!plain(transaction)) return commitTransaction.call(this, transaction, options);
    const sent = send(transaction, queryGenerator.commitTransactionQuery(transaction));
    (transaction as Finished).finished = 'commit';
    return sent;
  };
  steps.rollbackTransaction = function (transaction, options) {
    if (!plain(transaction)) return rollbackTransaction.call(this, transaction, options);
    const sent = send(transaction, queryGenerator.rollbackTransactionQuery(transaction));
    (transaction as Finished).finished = 'rollback';
    return sent;
  };
}
