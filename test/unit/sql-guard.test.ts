import { describe, expect, it } from 'vitest';
import { sqlGuard } from '../support/sql-guard';

const check = (url: string, sql: string) => {
  const guard = sqlGuard(url);
  if (typeof guard.logging === 'function') guard.logging(sql);
  return guard.violations;
};

describe('the MariaDB 10.3 SQL guard used by every integration test', () => {
  it('flags statements using features newer than MariaDB 10.3', () => {
    expect(check('mariadb://h/db', 'INSERT INTO `clusters` (`uid`) VALUES (?) RETURNING `uid`;')).toHaveLength(1);
    expect(check('mysql://h/db', 'SELECT * FROM JSON_TABLE(@j, \'$[*]\' COLUMNS (a INT PATH \'$\')) AS t;')).toHaveLength(1);
    expect(check('mysql://h/db', 'CREATE TABLE `x` (`id` UUID NOT NULL);')).toHaveLength(1);
  });

  it('ignores the same words inside quoted values and portable SQL', () => {
    expect(check('mariadb://h/db', "SELECT * FROM `clusters` WHERE `description` = 'returning uuid json_table';")).toEqual([]);
    expect(check('mariadb://h/db', "SELECT * FROM `c` WHERE `d` = 'it\\'s RETURNING' LIMIT 20, 10;")).toEqual([]);
    expect(check('mysql://h/db', 'SELECT UUID();')).toEqual([]);
  });

  it('leaves PostgreSQL alone, where RETURNING is native', () => {
    expect(sqlGuard('postgres://h/db').logging).toBe(false);
  });
});
