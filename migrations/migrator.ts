import { Umzug, SequelizeStorage } from 'umzug';
import type { Sequelize } from 'sequelize';
import { migrations } from '.';

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

export async function migrate(sequelize: Sequelize): Promise<string[]> {
  const done = await migrator(sequelize).up();
  return done.map((m) => m.name);
}
