/**
 * `npm run admin -- <command>`: administration without the API, on DATABASE_URL or the embedded database in
 * DATA_DIR (scripts/admin-database.ts); the commands are in scripts/admin-commands.ts. Exit codes: 0 done, 1 the
 * command could not do it (one line on stderr, whatever the database does), 2 a wrong invocation (one line and the
 * usage).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config';
import { migrationLevel } from '../migrations/migrator';
import { openAdminDatabase } from './admin-database';
import { COMMANDS, usage, type Command } from './admin-commands';
import { AdminError, UsageError } from './admin-errors';
import { explainStartError } from './start-errors';

// A connection that a stopping database drops between two statements fails outside any await: one line too.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (err) => {
    process.stderr.write(`${failure(process.argv[2] ?? 'admin', err)}\n`);
    process.exit(1);
  });
}

process.exit(await main(process.argv.slice(2)));

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? process.stderr : process.stdout).write(usage());
    return name === undefined ? 2 : 0;
  }
  try {
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!command) throw new UsageError(`unknown command '${name}'`);
    const { args, options } = parse(name, command, rest);
    command.validate?.(args, options);
    const config = loadConfig();
    const db = await openAdminDatabase(config);
    try {
      if (command.needsSchema) await requireMigrated(db.sequelize);
      await command.run({ config, db, args, options, print: (text) => process.stdout.write(text) });
    } finally {
      await db.close();
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${usage()}`);
      return 2;
    }
    process.stderr.write(`${failure(name, err)}\n`);
    return 1;
  }
}

/** The one line a failed command ends in: the cause and its fix when known, else what failed; never a stack trace. */
function failure(name: string, err: unknown): string {
  if (err instanceof AdminError) return err.message;
  return explainStartError(err) ?? `${name} failed: ${oneLine(err)}`;
}

/** A driver's own words (Sequelize wraps them); of a message of several lines, its first and last. */
function oneLine(err: unknown): string {
  const e = err as { parent?: Error; message?: unknown };
  const message = e?.parent?.message ?? (typeof e?.message === 'string' ? e.message : String(err));
  const lines = message.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines.length > 1 ? `${lines[0]} … ${lines.at(-1)}` : (lines[0] ?? String(err));
}

function parse(name: string, command: Command, argv: string[]) {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: command.options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${name}: ${(err as Error).message}`);
  }
  const [least, most] = typeof command.arity === 'number' ? [command.arity, command.arity] : command.arity;
  if (parsed.positionals.length < least || parsed.positionals.length > most) {
    throw new UsageError(`${name} takes ${command.arity === 0 ? 'no arguments' : command.synopsis.replace(/ \[.*$/, '')}`);
  }
  return { args: parsed.positionals, options: parsed.values as Record<string, string | boolean | undefined> };
}

async function requireMigrated(sequelize: Parameters<typeof migrationLevel>[0]): Promise<void> {
  const { pending } = await migrationLevel(sequelize);
  if (pending.length > 0) {
    throw new AdminError(`the database lacks ${pending.length} migration(s) of this version (${pending[0]}…): run npm run admin -- migrate, or start the service`);
  }
}
