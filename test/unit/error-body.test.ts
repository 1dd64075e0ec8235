/**
 * A unique clash that no check of the request named reaches the client as a 409 naming the field it sent, on every
 * database (PostgreSQL reports the index's columns, MySQL and MariaDB its name), never a column or attribute name.
 */
import { describe, expect, it } from 'vitest';
import { UniqueConstraintError } from 'sequelize';
import { UNIQUE_INDEX_COLUMNS } from '../../models/db-errors';
import { clashField, errorReply } from '../../server/error-body';

const clash = (fields: Record<string, unknown>) => errorReply(new UniqueConstraintError({ message: 'dup', fields } as never));

describe('errorReply of a unique clash', () => {
  it.each([
    ['PostgreSQL: a pair, named by its last column', { stream_uid: 'a', environment_uid: 'b' }, 'environment: already taken by another resource'],
    ['MariaDB: the same pair by its index name', { stream_configs_environment_uid_uq: 'a-b' }, 'environment: already taken by another resource'],
    ['PostgreSQL: a name in its tenant', { tenant_uid: 't', name_key: 'team' }, 'name: already taken by another resource'],
    ['MySQL 8: a short name by table and index', { 'instances.instances_short_name_key_uq': 'x' }, 'shortName: already taken by another resource'],
    ['a schema version', { schema_uid: 's', version_key: '1' }, 'version: already taken by another resource'],
    ['an index no client writes', { seq: '1' }, 'A resource with the same unique value already exists'],
  ])('%s', (_what, fields, message) => {
    const reply = clash(fields);
    expect(reply.status).toBe(409);
    expect(reply.toBody().errors).toEqual([message]);
  });

  it('every column a unique index ends with, but the audit sequence and the issuer session\'s secret (values the service makes), has a field a client sends', () => {
    expect(UNIQUE_INDEX_COLUMNS.filter((c) => !clashField(c)).sort()).toEqual(['secret_hash', 'seq']);
  });
});
