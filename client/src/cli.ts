#!/usr/bin/env node
/**
 * The client package's command line, for CI: `npx @platform-management-service/client schema check <file> --schema
 * <name>`. Settings and credentials come from the environment, where CI systems keep secrets; exit status 0 / 1 / 2
 * is compatible / incompatible / could not check.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CLI_OPTIONS } from './cli-options.js';
import { REPORT_FORMATS, type Report, type ReportFormat } from './check-report.js';
import { schemaCheck, type Connection } from './schema-check-command.js';
import { clientCredentialsToken } from './token.js';

const USAGE = `Usage: npx @platform-management-service/client schema check <file> --schema <name>
         [--mode <mode>] [--environment <short name>]... [--type AVRO|PROTOBUF|JSON_SCHEMA] [--format text|github|json]

Checks <file> as the next version of the schema <name>: in --mode (default: the schema's own, or BACKWARD when that
is NONE) against the schema's versions, and against the versions pinned in each --environment (default: every
environment you can see that pins one).

Environment:
  PMS_API_URL          the API root, e.g. https://pms.example.com/api
  PMS_TOKEN            an access token, or a service account's client credentials:
  PMS_TOKEN_URL        the token endpoint, e.g. https://pms.example.com/auth/realms/<tenant>/protocol/openid-connect/token
  PMS_CLIENT_ID        the service account's client id
  PMS_CLIENT_SECRET    its secret, or
  PMS_CLIENT_ASSERTION a CI job's OIDC token the tenant trusts (federated service account)
  PMS_REALM            the tenant's short name (optional; sent as the realm header)

Exit status: 0 compatible, 1 incompatible, 2 could not check.`;

class UsageError extends Error {}

/** The access token source the environment describes: a token as is, or client credentials asked for once. */
function tokenSource(env: NodeJS.ProcessEnv): () => Promise<string> {
  const given = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const token = given('PMS_TOKEN');
  if (token !== undefined) return async () => token;
  const tokenUrl = given('PMS_TOKEN_URL');
  const clientSecret = given('PMS_CLIENT_SECRET');
  const clientAssertion = given('PMS_CLIENT_ASSERTION');
  const clientId = given('PMS_CLIENT_ID');
  if (tokenUrl === undefined || (clientSecret === undefined && clientAssertion === undefined)) {
    throw new UsageError('set PMS_TOKEN, or PMS_TOKEN_URL with PMS_CLIENT_ID and PMS_CLIENT_SECRET (or PMS_CLIENT_ASSERTION)');
  }
  if (clientSecret !== undefined && clientAssertion !== undefined) throw new UsageError('set PMS_CLIENT_SECRET or PMS_CLIENT_ASSERTION, not both');
  if (clientSecret !== undefined && clientId === undefined) throw new UsageError('PMS_CLIENT_SECRET needs PMS_CLIENT_ID');
  let asked: Promise<string> | undefined;
  return () => (asked ??= clientCredentialsToken({ tokenUrl, clientId, clientSecret, clientAssertion }));
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<Report> {
  const { values, positionals } = parseArgs({ args: argv, options: CLI_OPTIONS, allowPositionals: true, strict: true });
  if (values.help) return { exitStatus: 0, stdout: [USAGE], stderr: [] };
  if (values.version) return { exitStatus: 0, stdout: [packageVersion()], stderr: [] };
  const [group, command, file, ...extra] = positionals;
  if (group !== 'schema' || command !== 'check') throw new UsageError(group === undefined ? 'name a command: schema check' : `unknown command: ${[group, command].filter(Boolean).join(' ')}`);
  if (file === undefined) throw new UsageError('name the document to check: schema check <file>');
  if (extra.length > 0) throw new UsageError(`one document at a time; unexpected: ${extra.join(' ')}`);
  if (values.schema === undefined) throw new UsageError('--schema <name> is required');
  const format = values.format as ReportFormat;
  if (!REPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}`);
  const baseUrl = env.PMS_API_URL;
  if (!baseUrl) throw new UsageError('set PMS_API_URL to the API root, e.g. https://pms.example.com/api');
  const connection: Connection = { baseUrl, getToken: tokenSource(env), realm: env.PMS_REALM || undefined };
  return schemaCheck({ file, schema: values.schema, mode: values.mode, type: values.type, environments: values.environment ?? [], format }, connection);
}

async function main(): Promise<void> {
  let report: Report;
  try {
    report = await run(process.argv.slice(2), process.env);
  } catch (e) {
    // parseArgs' own errors (an unknown option, a missing value) are usage errors too.
    const known = e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!known) throw e;
    report = { exitStatus: 2, stdout: [], stderr: [`error: ${(e as Error).message}`, '', USAGE] };
  }
  for (const line of report.stdout) process.stdout.write(`${line}\n`);
  for (const line of report.stderr) process.stderr.write(`${line}\n`);
  process.exitCode = report.exitStatus;
}

main().catch((e: unknown) => {
  process.stderr.write(`could not check: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exitCode = 2;
});
