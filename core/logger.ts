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

/**
 * The line every request ends with (server/telemetry/requests): its fields are fixed names with values the service
 * chose (ids, operationId, method, path, status, duration, a failure's kind and message), so nothing in it can be
 * redacted, and walking the redaction paths over it would double its cost. The caller asks `logger` whether its
 * level is on, so a change of the root's level (a test raising it to trace) governs this line too.
 */
export const requestLogger = logger.child({}, { redact: [], level: 'trace' });
