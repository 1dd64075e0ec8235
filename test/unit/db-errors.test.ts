import { describe, expect, it } from 'vitest';
import { ConnectionError, DatabaseError, UniqueConstraintError } from 'sequelize';
import { collidingColumns, isConnectionLost, isDeadlock } from '../../models/db-errors';

/** A driver error as Sequelize wraps it when the statement ran (DatabaseError keeps it as `parent`). */
const wrapped = (fields: Record<string, unknown>) => new DatabaseError(Object.assign(new Error(String(fields.message ?? 'x')), fields) as never);

describe('isConnectionLost', () => {
  it.each([
    ['PostgreSQL: session terminated by an administrator', wrapped({ code: '57P01', message: 'terminating connection due to administrator command' })],
    ['PostgreSQL: crash shutdown', wrapped({ code: '57P02' })],
    ['PostgreSQL: starting up', wrapped({ code: '57P03' })],
    ['PostgreSQL: connection failure class 08', wrapped({ code: '08006' })],
    ['pg: socket ended mid-statement (no code)', wrapped({ message: 'Connection terminated unexpectedly' })],
    ['pg: a client that already lost its connection (unwrapped, from connect)', new Error('Client has encountered a connection error and is not queryable')],
    ['pg: a closed client', wrapped({ message: 'Client was closed and is not queryable' })],
    ['the 57P01 notice itself, unwrapped', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['socket reset', wrapped({ code: 'ECONNRESET', message: 'read ECONNRESET' })],
    ['mariadb: socket closed by the server', wrapped({ code: 'ER_SOCKET_UNEXPECTED_CLOSE' })],
    ['mariadb: connection killed', wrapped({ code: 'ER_CONNECTION_KILLED' })],
    ['mysql2: connection lost', wrapped({ code: 'PROTOCOL_CONNECTION_LOST' })],
    ['MySQL: server shutting down', wrapped({ code: 'ER_SERVER_SHUTDOWN' })],
    ['MySQL: too many connections', wrapped({ code: 'ER_CON_COUNT_ERROR' })],
    ['Galera: a node not yet Synced (1047, SQLSTATE 08S01)', wrapped({ errno: 1047, code: 'ER_UNKNOWN_COM_ERROR', sqlState: '08S01', message: 'WSREP has not yet prepared node for application use' })],
    ['Sequelize ConnectionError around a refused connect', new ConnectionError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))],
  ])('%s', (_what, err) => {
    expect(isConnectionLost(err)).toBe(true);
  });

  it.each([
    ['a syntax error', wrapped({ code: '42601', message: 'syntax error at or near "x"' })],
    ['a unique violation', new UniqueConstraintError({ message: 'dup' })],
    ['a deadlock (retry, but not 503)', wrapped({ code: '40P01' })],
    ['a query cancelled by statement_timeout', wrapped({ code: '57014', message: 'canceling statement due to statement timeout' })],
    ['a message that merely mentions a connection', wrapped({ message: 'Connection terminated unexpectedly, said the user' })],
    ['nothing', undefined],
    ['a string', 'Connection terminated'],
  ])('not for %s', (_what, err) => {
    expect(isConnectionLost(err)).toBe(false);
  });
});

describe('isDeadlock', () => {
  it.each([
    ['PostgreSQL 40P01', wrapped({ code: '40P01' })],
    ['MySQL/MariaDB errno 1213', wrapped({ errno: 1213 })],
    ['MySQL/MariaDB ER_LOCK_DEADLOCK', wrapped({ code: 'ER_LOCK_DEADLOCK' })],
    ['SQLSTATE 40001', wrapped({ sqlState: '40001' })],
  ])('%s', (_what, err) => expect(isDeadlock(err)).toBe(true));
  it('not for a lost connection', () => expect(isDeadlock(wrapped({ code: '57P01' }))).toBe(false));
});

describe('collidingColumns', () => {
  it.each([
    ['PostgreSQL: the columns, tenant left out', { tenant_uid: 'a', name_key: 'team' }, ['name_key']],
    ['MariaDB: the index name', { groups_name_key_uq: 'a-team' }, ['name_key']],
    ['MySQL 8: table and index name', { 'groups.groups_name_key_uq': 'a-team' }, ['name_key']],
    ['the longest column the name ends with', { instances_short_name_key_uq: 'x' }, ['short_name_key']],
    ['a table whose name holds a column name', { application_access_access_type_uq: 'x' }, ['access_type']],
    ['the federated identity', { users_federated_uq: 'x' }, ['federated_subject']],
    ['an index of no known column', { mystery_uq: 'x' }, []],
  ])('%s', (_what, fields, columns) => expect(collidingColumns({ fields })).toEqual(columns));
});
