/**
 * What models/sequelize-adapter relies on of Sequelize's internals, checked against the installed Sequelize: an
 * upgrade that changes any of it fails here, before a read silently builds other SQL or other instances.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseError, ForeignKeyConstraintError, Op, UniqueConstraintError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { openDatabase } from '../../models/db';
import { initModels } from '../../models';
import { bookkeeping, markSaved, onPooledConnection, poolUsage, readRow, selectSql, sequelizeError, typeParser } from '../../models/sequelize-adapter';

// No server listens here: nothing in this file connects (Sequelize connects on a pooled connection's first use).
const databases = {
  postgres: openDatabase('postgres://u:p@127.0.0.1:9/none'),
  mysql: openDatabase('mysql://u:p@127.0.0.1:9/none'),
  mariadb: openDatabase('mariadb://u:p@127.0.0.1:9/none'),
} satisfies Record<string, Sequelize>;
const models = Object.fromEntries(Object.entries(databases).map(([name, sequelize]) => [name, initModels(sequelize)])) as Record<keyof typeof databases, ReturnType<typeof initModels>>;
afterAll(async () => { for (const sequelize of Object.values(databases)) await sequelize.close(); });

/** A page of clusters as the store reads one: tenant and filter, order, limit and offset. */
const page = () => ({
  where: { [Op.and]: [{ tenantUid: 't1' }, { nameKey: { [Op.like]: '%a\\_b%' } }] },
  order: [['createdAt', 'ASC'], ['uid', 'DESC']] as [string, string][],
  limit: 20,
  offset: 40,
});

describe('selectSql: the SELECT findAll would send', () => {
  it('PostgreSQL: columns mapped to their fields, quoted, with the operators, order, limit and offset', () => {
    const cluster = models.postgres.Cluster as ModelStatic<Model>;
    expect(selectSql(cluster, { attributes: ['uid', 'nameKey'], ...page() })).toBe(
      'SELECT "uid", "name_key" AS "nameKey" FROM "clusters" AS "Cluster" WHERE ("Cluster"."tenant_uid" = \'t1\' AND "Cluster"."name_key" LIKE \'%a\\_b%\') ORDER BY "Cluster"."created_at" ASC, "Cluster"."uid" DESC LIMIT 20 OFFSET 40',
    );
  });

  it('MySQL and MariaDB: the same read in their quoting and LIMIT form', () => {
    for (const dialect of ['mysql', 'mariadb'] as const) {
      const cluster = models[dialect].Cluster as ModelStatic<Model>;
      expect(selectSql(cluster, { attributes: ['uid', 'nameKey'], ...page() }), dialect).toBe(
        'SELECT `uid`, `name_key` AS `nameKey` FROM `clusters` AS `Cluster` WHERE (`Cluster`.`tenant_uid` = \'t1\' AND `Cluster`.`name_key` LIKE \'%a\\\\_b%\') ORDER BY `Cluster`.`created_at` ASC, `Cluster`.`uid` DESC LIMIT 40, 20',
      );
    }
  });

  it('a literal select list, as the bounded count and the page with its targets use', () => {
    const cluster = models.postgres.Cluster as ModelStatic<Model>;
    const sequelize = databases.postgres;
    expect(selectSql(cluster, { attributes: [[sequelize.literal('1'), 'one']], where: { tenantUid: 't1' }, order: [['uid', 'ASC']], limit: 3 })).toBe(
      'SELECT 1 AS "one" FROM "clusters" AS "Cluster" WHERE "Cluster"."tenant_uid" = \'t1\' ORDER BY "Cluster"."uid" ASC LIMIT 3',
    );
    expect(selectSql(cluster, { attributes: [sequelize.literal('*') as never], where: { tenantUid: 't1' }, order: [['uid', 'ASC']], limit: 3, offset: 0 })).toBe(
      'SELECT * FROM "clusters" AS "Cluster" WHERE "Cluster"."tenant_uid" = \'t1\' ORDER BY "Cluster"."uid" ASC LIMIT 3 OFFSET 0',
    );
  });
});

describe('readRow: the instance build makes, without build', () => {
  const values = () => ({
    uid: 'c'.repeat(32), tenantUid: 't'.repeat(32), createdBy: 'a@example.com', modifiedBy: null,
    createdAt: new Date('2024-05-06T07:08:09.123Z'), modifiedAt: new Date('2024-05-06T07:08:10.456Z'), version: 3,
    name: 'Main', nameKey: 'main', description: null, location: 'eu', bootstrapServers: '["a:9092"]', schemaRegistryUrls: '[]',
    providerType: 'APACHE_KAFKA', apiUrl: null,
  });

  it('has exactly the fields, state and options of model.build(values, { raw: true, isNewRecord: false })', () => {
    for (const dialect of ['postgres', 'mysql'] as const) {
      const cluster = models[dialect].Cluster as ModelStatic<Model>;
      const built = cluster.build(values(), { raw: true, isNewRecord: false });
      // The constructor's own fields, in its order: a field added or renamed by an upgrade fails here.
      expect(Object.keys(built)).toEqual(['dataValues', '_previousDataValues', 'uniqno', '_changed', '_options', 'isNewRecord']);
      expect(readRow(cluster, values())).toStrictEqual(built);
    }
  });

  it('is a working instance: getters, change tracking and the previous values', () => {
    const cluster = models.postgres.Cluster as ModelStatic<Model>;
    const row = readRow(cluster, values());
    expect(row.get('bootstrapServers')).toEqual(['a:9092']);
    expect(row.changed()).toBe(false);
    row.set('name', 'Other');
    expect(row.changed()).toEqual(['name']);
    expect(row.previous('name')).toBe('Main');
    expect(row.isNewRecord).toBe(false);
  });
});

describe('typeParser: values parsed as Sequelize\'s PostgreSQL connections parse them', () => {
  it('dates, booleans, integers and text by type oid', () => {
    const sequelize = databases.postgres;
    expect(typeParser(sequelize, 1184)('2024-05-06 07:08:09.123+00')).toEqual(new Date('2024-05-06T07:08:09.123Z'));
    expect(typeParser(sequelize, 16)('t')).toBe(true);
    expect(typeParser(sequelize, 16)('f')).toBe(false);
    expect(typeParser(sequelize, 23)('42')).toBe(42);
    expect(typeParser(sequelize, 25)('x  ')).toBe('x  ');
  });
});

describe('onPooledConnection: the pool and the query hooks', () => {
  it('the connection manager hands out and takes back connections, and drops one marked _invalid', () => {
    for (const sequelize of Object.values(databases)) {
      const manager = sequelize.connectionManager as unknown as Record<string, unknown> & { validate(c: object): boolean };
      expect(typeof manager.getConnection).toBe('function');
      expect(typeof manager.releaseConnection).toBe('function');
    }
    const manager = databases.postgres.connectionManager as unknown as { validate(c: object): boolean };
    expect(manager.validate({ _invalid: true })).toBe(false);
    expect(manager.validate({})).toBe(true);
  });

  it('runs the statement between the beforeQuery and afterQuery hooks, which see its SQL, and releases the connection', async () => {
    const sequelize = openDatabase('postgres://u:p@127.0.0.1:9/none');
    const seen: string[] = [];
    sequelize.addHook('beforeQuery', (_options, query) => { seen.push(`before ${(query as unknown as { sql: string }).sql}`); });
    sequelize.addHook('afterQuery', (_options, query) => { seen.push(`after ${(query as unknown as { sql: string }).sql}`); });
    // The pool is the one piece replaced: no database listens here.
    const connection = {};
    const manager = sequelize.connectionManager as unknown as { getConnection(): Promise<object>; releaseConnection(c: object): Promise<void> };
    manager.getConnection = async () => connection;
    manager.releaseConnection = async (c) => { seen.push(c === connection ? 'released' : 'released another'); };
    const answer = await onPooledConnection(sequelize, 'SELECT 1', () => false, async (c) => { seen.push(c === connection ? 'run' : 'run elsewhere'); return 7; });
    expect(answer).toBe(7);
    expect(seen).toEqual(['before SELECT 1', 'run', 'after SELECT 1', 'released']);
    await sequelize.close();
  });
});

describe('poolUsage: the pool counters the metrics read', () => {
  it('sequelize-pool keeps its connections in use, idle and the waiting acquires, on every dialect', async () => {
    for (const sequelize of Object.values(databases)) {
      const pool = (sequelize.connectionManager as unknown as { pool: Record<string, unknown> }).pool;
      for (const counter of ['using', 'available', 'waiting']) expect(typeof pool[counter], counter).toBe('number');
      expect(poolUsage(sequelize)).toEqual({ used: 0, idle: 0, waiting: 0 });
    }
  });

  it('counts a connection lent out, then idle once released', async () => {
    const sequelize = openDatabase('postgres://u:p@127.0.0.1:9/none');
    const manager = sequelize.connectionManager as unknown as { pool: { acquire(): Promise<object>; release(c: object): void; _factory: { create(): Promise<object>; validate(c: object): boolean } } };
    // The factory is the one piece replaced: no database listens here.
    manager.pool._factory.create = async () => ({ end: (done: () => void) => done() });
    manager.pool._factory.validate = () => true;
    const connection = await manager.pool.acquire();
    expect(poolUsage(sequelize)).toEqual({ used: 1, idle: 0, waiting: 0 });
    manager.pool.release(connection);
    expect(poolUsage(sequelize)).toEqual({ used: 0, idle: 1, waiting: 0 });
    await sequelize.close();
  });
});

describe('onPooledConnection in a transaction: on its connection, under the hooks, never released', () => {
  it('runs on the transaction\'s connection, the hooks see the SQL and the statement\'s kind and model, the pool is not touched', async () => {
    const sequelize = openDatabase('postgres://u:p@127.0.0.1:9/none');
    const seen: string[] = [];
    sequelize.addHook('afterQuery', (options, query) => {
      seen.push(`after ${(options as { type?: string }).type} ${(options as { model?: { name?: string } }).model?.name} ${(query as unknown as { sql: string }).sql}`);
    });
    const manager = sequelize.connectionManager as unknown as { getConnection(): Promise<object>; releaseConnection(c: object): Promise<void> };
    manager.getConnection = async () => { seen.push('acquired'); return {}; };
    manager.releaseConnection = async () => { seen.push('released'); };
    const connection = {};
    const transaction = { connection } as never;
    const cluster = initModels(sequelize).Cluster as ModelStatic<Model>;
    await onPooledConnection(sequelize, 'INSERT 1', () => false, async (c) => { seen.push(c === connection ? 'run' : 'run elsewhere'); }, transaction, { type: 'INSERT', model: cluster });
    expect(seen).toEqual(['run', 'after INSERT Cluster INSERT 1']);
    await sequelize.close();
  });
});

describe('sequelizeError: a driver\'s error as Sequelize\'s own query throws it', () => {
  it('PostgreSQL: 23505 a UniqueConstraintError naming the columns, 23503 a ForeignKeyConstraintError, others a DatabaseError', () => {
    const sequelize = databases.postgres;
    const unique = Object.assign(new Error('duplicate key value violates unique constraint "groups_name_key_uq"'), {
      code: '23505', detail: 'Key (tenant_uid, name_key)=(t, x) already exists.', constraint: 'groups_name_key_uq', table: 'groups',
    });
    const err = sequelizeError(sequelize, unique);
    expect(err).toBeInstanceOf(UniqueConstraintError);
    expect(Object.keys((err as UniqueConstraintError).fields)).toEqual(['tenant_uid', 'name_key']);
    const foreign = Object.assign(new Error('insert or update violates foreign key constraint'), { code: '23503', detail: 'Key (owners_uid)=(g) is not present.', table: 'streams' });
    expect(sequelizeError(sequelize, foreign)).toBeInstanceOf(ForeignKeyConstraintError);
    const other = sequelizeError(sequelize, Object.assign(new Error('division by zero'), { code: '22012' }));
    expect(other).toBeInstanceOf(DatabaseError);
    expect((other as DatabaseError).parent.message).toBe('division by zero');
  });
});

describe('bookkeeping and markSaved: what save keeps for a model, and the state it leaves a row in', () => {
  it('a resource model keeps createdAt, modifiedAt and version; the audit model none of them and its seq is the database\'s', () => {
    for (const dialect of ['postgres', 'mysql', 'mariadb'] as const) {
      expect(bookkeeping(models[dialect].Cluster as ModelStatic<Model>), dialect).toEqual({ createdAt: 'createdAt', updatedAt: 'modifiedAt', version: 'version', autoIncrement: [] });
      expect(bookkeeping(models[dialect].AuditEvent as ModelStatic<Model>), dialect).toEqual({ createdAt: undefined, updatedAt: undefined, version: undefined, autoIncrement: ['seq'] });
    }
  });

  it('markSaved: nothing changed any more, the values now the previous values, no longer a new record', () => {
    const cluster = models.postgres.Cluster as ModelStatic<Model>;
    const row = cluster.build({ name: 'A', bootstrapServers: ['a:9092'] });
    row.set('name', 'B');
    markSaved(row);
    expect(row.changed()).toBe(false);
    expect(row.previous('name')).toBe('B');
    expect(row.isNewRecord).toBe(false);
    row.set('name', 'C');
    expect(row.changed()).toEqual(['name']);
  });
});
