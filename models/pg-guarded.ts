/**
 * The pg module Sequelize is given on PostgreSQL: its Client listens for `error` from the moment it is made.
 * Sequelize attaches its own listener only after `connect()` has resolved, a microtask after pg saw ReadyForQuery;
 * when the server ends the session in that gap (a restart, a failover, pg_terminate_backend), the termination notice
 * arriving in the same read as ReadyForQuery was emitted with no listener, an uncaught exception that ended the
 * process (reproduced: dropping connections while the pool opened new ones). The client is only marked unusable
 * here; Sequelize's next statement on it fails as a connection error (503) and its pool validation drops it.
 */
import pg from 'pg';

class GuardedClient extends pg.Client {
  _invalid?: boolean;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {
      this._invalid = true;
    });
  }
}

export const guardedPg: typeof pg = Object.create(pg, { Client: { value: GuardedClient, enumerable: true } });
