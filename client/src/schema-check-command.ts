/**
 * `schema check`: asks the service whether a document, as the next version of a schema, is compatible with the
 * schema's versions in its mode and with the versions the environments pin (POST /schemas/check-compatibility),
 * and turns the answer into a report (./check-report.ts). Any failure to reach a verdict is a report too (exit 2).
 */
import { readFile } from 'node:fs/promises';
import { failureReport, verdictReport, type Report, type ReportFormat } from './check-report.js';
import type { components } from './generated/schema.js';
import { createPlatformClient, type PlatformClientOptions } from './index.js';

export interface SchemaCheckOptions {
  /** The document's path, as the report names it. */
  file: string;
  /** The schema's name (its fullName). */
  schema: string;
  mode?: string;
  type?: string;
  /** Short names; none: every environment the caller sees that pins a version of the schema. */
  environments: string[];
  format: ReportFormat;
}

export type Connection = Pick<PlatformClientOptions, 'baseUrl' | 'getToken' | 'realm' | 'fetch'>;

const messageOf = (e: unknown) => (e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e));

export async function schemaCheck(options: SchemaCheckOptions, connection: Connection): Promise<Report> {
  const { file, format } = options;
  let document: string;
  try {
    document = await readFile(file, 'utf8');
  } catch (e) {
    return failureReport(file, { message: `cannot read the file: ${messageOf(e)}` }, format);
  }
  const body = {
    schema: document,
    name: options.schema,
    // The service validates both and answers 400 naming the field, so the CLI repeats no enum.
    ...(options.mode === undefined ? {} : { mode: options.mode as components['schemas']['CompatibilityMode'] }),
    ...(options.type === undefined ? {} : { type: options.type as components['schemas']['SchemaType'] }),
    ...(options.environments.length === 0 ? {} : { environments: options.environments }),
  };
  try {
    const api = createPlatformClient(connection);
    const { data, error, response } = await api.POST('/schemas/check-compatibility', { body });
    if (data === undefined) return failureReport(file, { status: response.status, error: typeof error === 'object' ? error : undefined, message: `${response.status} ${response.statusText}` }, format);
    return verdictReport(file, data, format);
  } catch (e) {
    return failureReport(file, { message: messageOf(e) }, format);
  }
}
