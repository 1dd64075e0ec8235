/** The commands of `npm run admin` (scripts/admin.ts): what each takes, and what it does on an open database. */
import os from 'node:os';
import type { ParseArgsConfig } from 'node:util';
import { col, fn, UniqueConstraintError } from 'sequelize';
import type { Config } from '../core/config';
import { authBase } from '../core/public-url';
import { spec } from '../core/spec';
import { serviceVersion } from '../core/version';
import { migrate, migrationLevel } from '../migrations/migrator';
import { createTenantWithAdmin, randomPassword, type Maker } from '../models/bootstrap';
import { findPeopleByEmail, resetPassword } from '../models/password-reset';
import type { AdminDatabase } from './admin-database';
import { AdminError, UsageError } from './admin-errors';
import { checkSigningKeysOpen, createKeyStore, ROTATION_GRACE_MS } from '../auth/keys';
import { createSecretBox, encryptionKeySource } from '../core/secret-box';
import { NOTIFICATIONS_OPTIONS, NOTIFICATIONS_SUMMARY, NOTIFICATIONS_SYNOPSIS, runNotifications, validateNotifications } from './admin-notifications';

export interface CommandContext {
  config: Config;
  db: AdminDatabase;
  args: string[];
  options: Record<string, string | boolean | undefined>;
  print: (text: string) => void;
}

export interface Command {
  /** The arguments as the usage shows them. */
  synopsis: string;
  summary: string;
  /** How many positional arguments it takes: exactly, or from the first to the second (validate says which fit). */
  arity: number | readonly [number, number];
  options: NonNullable<ParseArgsConfig['options']>;
  /** It reads or writes the service's tables, so every migration of this version must be applied first. */
  needsSchema: boolean;
  /** Refuses wrong arguments (UsageError) before any database is opened. */
  validate?: (args: string[], options: CommandContext['options']) => void;
  run: (ctx: CommandContext) => Promise<void>;
}

/**
 * The audit actor of a change made here: `admin-cli`, no e-mail address since no user of the service made it, and
 * as actorName the operating-system account and host that ran the command (docs/contract.md §8).
 */
export function cliMaker(): Maker {
  let account: string;
  try {
    account = os.userInfo().username;
  } catch {
    account = `uid ${process.getuid?.() ?? '?'}`;
  }
  return { actor: 'admin-cli', actorName: `npm run admin by ${account}@${os.hostname()}` };
}

const SHORT_NAME = new RegExp(spec.components.schemas.TenantFields.properties.shortName.pattern as string);
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const NAME_MAX = 100;
const json = { json: { type: 'boolean' } } as const;

export const COMMANDS: Record<string, Command> = {
  'reset-password': {
    synopsis: '<email> [--tenant <shortName>]',
    summary: "a new random password for a person, printed once (audited)",
    arity: 1,
    options: { tenant: { type: 'string' } },
    needsSchema: true,
    async run({ config, db, args: [email], options, print }) {
      if (config.externalAuthUrl) throw new AdminError(`passwords are kept by the identity provider at ${config.externalAuthUrl} (AUTH_URL): reset it there`);
      const tenant = options.tenant as string | undefined;
      if (tenant !== undefined && !(await db.models.Tenant.findOne({ where: { shortName: tenant.toLowerCase() } }))) {
        throw new AdminError(`no tenant '${tenant}' (npm run admin -- list-tenants lists them)`);
      }
      const people = await findPeopleByEmail(db.models, email, tenant);
      if (people.length === 0) throw new AdminError(`no user with e-mail address ${email}${tenant ? ` in tenant '${tenant}'` : ''} (a service account has no password)`);
      if (people.length > 1) {
        throw new AdminError(`${email} is a user of tenants ${people.map((p) => p.tenant.shortName).join(', ')}: name one with --tenant <shortName>`);
      }
      const [person] = people;
      const password = randomPassword();
      await resetPassword(db.models, person, password, cliMaker());
      print(`New password of ${person.user.email} in tenant '${person.tenant.shortName}': ${password}  (shown only this once)\n`);
    },
  },

  'create-tenant': {
    synopsis: '<shortName> <admin email> [--name <name>]',
    summary: "a tenant and its TENANT_ADMIN, whose password is printed once (audited)",
    arity: 2,
    options: { name: { type: 'string' } },
    needsSchema: true,
    validate([shortName, email], options) {
      if (!SHORT_NAME.test(shortName)) throw new UsageError(`the shortName must match ${SHORT_NAME.source}: '${shortName}'`);
      if (!EMAIL.test(email)) throw new UsageError(`not an e-mail address: '${email}'`);
      const name = options.name as string | undefined;
      if (name !== undefined && (name.trim() === '' || name.length > NAME_MAX)) throw new UsageError(`--name must have 1 to ${NAME_MAX} characters`);
    },
    async run({ config, db, args: [shortName, email], options, print }) {
      const name = (options.name as string | undefined) ?? shortName;
      const taken = () => new AdminError(`tenant '${shortName}' already exists`);
      if (await db.models.Tenant.findOne({ where: { shortName } })) throw taken();
      // The first tenant's admin also administers every tenant, as the first start's admin does.
      const superAdmin = (await db.models.Tenant.count()) === 0;
      const external = config.externalAuthUrl !== undefined;
      const created = await createTenantWithAdmin(db.models, { shortName, name, email, superAdmin, withoutPassword: external }, cliMaker())
        .catch((err: unknown) => { throw err instanceof UniqueConstraintError ? taken() : err; });
      const issuer = `${authBase(config, config.port)}/realms/${shortName}`;
      print([
        created.password === null
          ? `Created tenant '${shortName}' with admin ${email}: sign in at ${issuer} as ${email} (a verified e-mail address) and that account becomes this admin.`
          : `Created tenant '${shortName}' with admin ${email} / ${created.password}  (shown only this once)`,
        `Roles: ${created.roles.join(', ')}`,
        `Token issuer: ${issuer}`,
        '',
      ].join('\n'));
    },
  },

  'rotate-signing-key': {
    synopsis: '',
    summary: "a new signing key for the embedded issuer's tokens; the previous ones keep verifying for 31 minutes",
    arity: 0,
    options: {},
    needsSchema: true,
    async run({ config, db, print }) {
      if (config.externalAuthUrl) throw new AdminError(`tokens are signed by the identity provider at ${config.externalAuthUrl} (AUTH_URL): rotate its keys there`);
      const box = createSecretBox(config);
      // A key sealed with another ENCRYPTION_KEY than the hosts' would stop every sign-in: refuse before writing one.
      await checkSigningKeysOpen(db.models, box, encryptionKeySource(config));
      const keys = createKeyStore(db.models, box);
      const before = (await keys.jwks()).keys.length;
      await keys.rotate();
      const { kid } = await keys.activeKey();
      print([
        `New signing key ${kid}: every host signs with it within a minute and verifies it at once.`,
        `The ${before} previous key${before === 1 ? '' : 's'} keep verifying for ${Math.round(ROTATION_GRACE_MS / 60_000)} minutes, the longest a token they signed lives.`,
        '',
      ].join('\n'));
    },
  },

  'list-tenants': {
    synopsis: '[--json]',
    summary: 'the tenants and their numbers of users',
    arity: 0,
    options: json,
    needsSchema: true,
    async run({ db, options, print }) {
      const tenants = await db.models.Tenant.findAll({ order: [['shortName', 'ASC']] });
      const counts = await db.models.User.findAll({ attributes: ['tenantUid', [fn('COUNT', col('uid')), 'users']], group: ['tenantUid'], raw: true }) as unknown as { tenantUid: string; users: number | string }[];
      const users = new Map(counts.map((c) => [c.tenantUid, Number(c.users)]));
      const rows = tenants.map((t) => ({ shortName: t.shortName as string, name: t.name as string, users: users.get(t.uid) ?? 0, createdAt: (t.createdAt as Date).toISOString() }));
      if (options.json) return print(`${JSON.stringify(rows, null, 2)}\n`);
      print(table(['SHORT NAME', 'NAME', 'USERS', 'CREATED'], rows.map((r) => [r.shortName, r.name, String(r.users), r.createdAt])));
    },
  },

  migrate: {
    synopsis: '',
    summary: 'applies the pending database migrations',
    arity: 0,
    options: {},
    needsSchema: false,
    async run({ db, print }) {
      const applied = await migrate(db.sequelize);
      print(applied.length > 0 ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    },
  },

  status: {
    synopsis: '[--json]',
    summary: 'version, database, migration level, numbers of tenants and users',
    arity: 0,
    options: json,
    needsSchema: false,
    async run({ db, options, print }) {
      const level = await migrationLevel(db.sequelize);
      // Without the first migration there are no tables to count.
      const counted = level.applied.length > 0;
      const people = counted ? await db.models.User.count({ where: { serviceAccount: false } }) : null;
      const serviceAccounts = counted ? await db.models.User.count({ where: { serviceAccount: true } }) : null;
      const status = {
        version: serviceVersion(),
        database: db.description,
        migrations: { applied: level.applied.length, known: level.known, latest: level.applied.at(-1) ?? null, pending: level.pending, unknown: level.unknown },
        tenants: counted ? await db.models.Tenant.count() : null,
        users: { people, serviceAccounts },
      };
      if (options.json) return print(`${JSON.stringify(status, null, 2)}\n`);
      const m = status.migrations;
      const lines = [
        ['version', status.version],
        ['database', status.database],
        ['migrations', `${m.applied} of ${m.known} applied${m.latest ? ` (latest ${m.latest})` : ''}${m.pending.length > 0 ? `; ${m.pending.length} pending from ${m.pending[0]} (npm run admin -- migrate)` : ''}`],
        ...(m.unknown.length > 0 ? [['', `applied by a newer version: ${m.unknown.join(', ')}`]] : []),
        ['tenants', status.tenants === null ? '-' : String(status.tenants)],
        ['users', people === null ? '-' : `${count(people, 'person', 'people')}, ${count(serviceAccounts!, 'service account', 'service accounts')}`],
      ];
      print(table(null, lines));
    },
  },

  notifications: {
    synopsis: NOTIFICATIONS_SYNOPSIS,
    summary: NOTIFICATIONS_SUMMARY,
    arity: [0, 2],
    options: NOTIFICATIONS_OPTIONS,
    needsSchema: true,
    validate: validateNotifications,
    run: (ctx) => runNotifications(ctx, table),
  },
};

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Columns padded to their widest cell. */
function table(header: string[] | null, rows: string[][]): string {
  const all = header ? [header, ...rows] : rows;
  const widths = all[0]?.map((_, i) => Math.max(...all.map((r) => r[i].length))) ?? [];
  return all.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd()).join('\n') + '\n';
}

export function usage(): string {
  const width = Math.max(...Object.entries(COMMANDS).map(([name, c]) => `${name} ${c.synopsis}`.trim().length));
  return [
    'Usage: npm run admin -- <command> [arguments]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${`${name} ${c.synopsis}`.trim().padEnd(width)}  ${c.summary}`),
    '',
    'The database is DATABASE_URL when set; else the embedded PostgreSQL in DATA_DIR (./.data): the running',
    "service's, or one started for the command and stopped after it.",
    '',
  ].join('\n');
}
