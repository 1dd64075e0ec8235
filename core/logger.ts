import pino from 'pino';

/** What a log line carries of the request it belongs to (its trace id), when tracing is on. */
type LineFields = () => Record<string, unknown> | undefined;
let lineFields: LineFields | undefined;
const NONE = {};

/** Tracing (server/telemetry) sets where each line finds its trace; until then lines carry none. */
export function setLogLineFields(fields: LineFields | undefined): void {
  lineFields = fields;
}

/**
 * Standard output, written once per turn of the event loop (docs/adr/0012-log-lines-per-turn.md): the lines of one
 * turn (under load, the requests that ended together) leave in one write at its end, not one write each, and
 * each write is whole lines of at most PIPE_BUF bytes, so the lines of several workers on one pipe never
 * interleave. pino's SonicBoom writes them; a line waits at most for the end of its turn, and an exiting process
 * writes what it holds.
 */
const stdout = pino.destination({ dest: 1, sync: true, minLength: 2048, maxWrite: 4096 });
let flushing = false;
// flush, not flushSync: the same synchronous write, without the fsync that flushSync adds.
const endOfTurn = () => {
  flushing = false;
  stdout.flush();
};
process.on('exit', () => stdout.flush());
const destination = {
  write(line: string): boolean {
    stdout.write(line);
    if (!flushing) {
      flushing = true;
      setImmediate(endOfTurn);
    }
    return true;
  },
};

/** Writes every line logged so far before it returns: what is written to standard output next comes after them. */
export function flushLog(): void {
  stdout.flush();
}

/** One logger for the process. Secrets never reach it: request bodies are not logged, and the token is redacted. */
export const logger = pino({
  level: process.env.LOG_LEVEL || (process.env.VITEST ? 'warn' : 'info'),
  redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.client_secret', '*.clientSecret'],
  mixin: () => lineFields?.() ?? NONE,
  // pino merges into the mixin's object: the shared empty one is never written to.
  mixinMergeStrategy: (line, fields) => (fields === NONE ? line : Object.assign(fields, line)),
}, destination);

/**
 * The line every request ends with (server/telemetry/requests): its fields are fixed names with values the service
 * chose (ids, operationId, method, path, status, duration, a failure's kind and message), so nothing in it can be
 * redacted, and walking the redaction paths over it would double its cost. The caller asks `logger` whether its
 * level is on, so a change of the root's level (a test raising it to trace) governs this line too.
 */
export const requestLogger = logger.child({}, { redact: [], level: 'trace' });
