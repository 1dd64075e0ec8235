import { Umzug, SequelizeStorage } from 'umzug';
import type { Sequelize } from 'sequelize';
import { migrations } from '.';
import { withMigrationLock } from './lock';

/** umzug over the static list in migrations/index.ts (works the same under tsx, vitest and plain node). */
export function migrator(sequelize: Sequelize) {
  const context = sequelize.getQueryInterface();
  return new Umzug({
    migrations: migrations.map((m) => ({ name: m.name, up: () => m.up({ context }), down: () => m.down({ context }) })),
    context,
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

/** Applies what is pending, under the database's migration lock (migrations/lock): hosts may start together. */
export async function migrate(sequelize: Sequelize): Promise<string[]> {
  const done = await withMigrationLock(sequelize, () => migrator(sequelize).up());
  return done.map((m) => m.name);
}

export interface MigrationLevel {
  /** Applied migrations, oldest first (those of a newer version included). */
  applied: string[];
  /** How many migrations this version has. */
  known: number;
  pending: string[];
  /** Applied, but not among this version's: the database was migrated by a newer version. */
  unknown: string[];
}

export async function migrationLevel(sequelize: Sequelize): Promise<MigrationLevel> {
  const umzug = migrator(sequelize);
  const applied = (await umzug.executed()).map((m) => m.name);
  const known = new Set(migrations.map((m) => m.name));
  return {
    applied,
    known: known.size,
    pending: (await umzug.pending()).map((m) => m.name),
    unknown: applied.filter((name) => !known.has(name)),
  };
}
