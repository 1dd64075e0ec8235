/** The kind a statement is counted and traced as (core/observe): its first keyword, from a closed set. */
import { describe, expect, it } from 'vitest';
import { statementKind } from '../../core/observe';

describe('statementKind', () => {
  it.each([
    ['SELECT "uid" FROM "clusters" AS "Cluster" WHERE 1', 'SELECT'],
    ['(SELECT 1) UNION ALL (SELECT 2)', 'SELECT'],
    ['  \n\tSELECT 1', 'SELECT'],
    ['select 1', 'SELECT'],
    ['WITH x AS (SELECT 1) SELECT * FROM x', 'SELECT'],
    ['INSERT INTO "groups" ("uid") VALUES ($1)', 'INSERT'],
    ['UPDATE `grants` SET `status`=? WHERE `uid` = ?', 'UPDATE'],
    ['DELETE FROM "users" WHERE "uid" = $1', 'DELETE'],
    ['START TRANSACTION;', 'BEGIN'],
    ['start transaction', 'BEGIN'],
    ['BEGIN', 'BEGIN'],
    ['COMMIT;', 'COMMIT'],
    ['ROLLBACK TO SAVEPOINT "sp-1";', 'ROLLBACK'],
    ['SAVEPOINT "sp-1";', 'SAVEPOINT'],
    ['SET TRANSACTION ISOLATION LEVEL READ COMMITTED;', 'SET'],
    ['SHOW TABLES', 'OTHER'],
    ['CREATE TABLE x (a int)', 'OTHER'],
    ['', 'OTHER'],
    [undefined, 'OTHER'],
  ])('%j → %s', (sql, kind) => {
    expect(statementKind(sql)).toBe(kind);
  });
});
