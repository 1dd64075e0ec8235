import pino from 'pino';

/** What a log line carries of the request it belongs to (its trace id), when tracing is on. */
type LineFields = () => Record<string, unknown> | undefined;
let lineFields: LineFields | undefined;
const NONE = {};

/** Tracing (server/telemetry) sets where each line finds its trace; until then lines carry none. */
export function setLogLineFields(fields: LineFields | undefined): void {
  lineFields = fields;
}

/** One logger for the process. Secrets never reach it: request bodies are not logged, and the token is redacted. */
export const logger = pino({
  level: process.env.LOG_LEVEL || (process.env.VITEST ? 'warn' : 'info'),
  redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.client_secret', '*.clientSecret'],
  mixin: () => lineFields?.() ?? NONE,
  // pino merges into the mixin's object: the shared empty one is never written to.
  mixinMergeStrategy: (line, fields) => (fields === NONE ? line : Object.assign(fields, line)),
});
