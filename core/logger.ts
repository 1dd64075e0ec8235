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
 * Standard output, written in batches (docs/adr/0012-request-path-at-defaults.md): lines gather in one string and
 * leave in one write once the next line would pass the write limit, or BATCH_MS after the batch's first line; so
 * under load a write carries a dozen request lines instead of one. Each write is whole lines of at most PIPE_BUF
 * bytes (a longer line alone) unless the process writes alone (soleWriter), so the lines of several workers on one
 * pipe never interleave. pino's SonicBoom makes the writes (partial writes, EAGAIN); an exiting process writes what
 * it holds.
 */
const PIPE_BUF = 4096;
const BATCH_MS = 10;
/** A write's bytes at most: PIPE_BUF while other processes may share the output, more for a sole writer. */
let writeLimit = PIPE_BUF;
const stdout = pino.destination({ dest: 1, sync: true, minLength: 0 });
let batch = '';
let batchBytes = 0;
let pending: NodeJS.Timeout | undefined;
const writeBatch = () => {
  if (batch === '') return;
  const lines = batch;
  batch = '';
  batchBytes = 0;
  stdout.write(lines);
};
const endOfBatch = () => {
  pending = undefined;
  writeBatch();
};
process.on('exit', writeBatch);
const destination = {
  write(line: string): boolean {
    const bytes = Buffer.byteLength(line);
    if (batchBytes + bytes > writeLimit) writeBatch();
    batch += line;
    batchBytes += bytes;
    // Unreferenced: a process with nothing else to do exits, and its exit writes the batch.
    pending ??= setTimeout(endOfBatch, BATCH_MS).unref();
    return true;
  },
};

/**
 * This process is the only one writing lines to its standard output (`WORKERS=1`): no other's lines can come
 * between, so a write may carry up to 64 KiB (a pipe's whole buffer) and the batches of a busy process get longer.
 */
export function soleWriter(): void {
  writeLimit = 65_536;
}

/** Writes every line logged so far before it returns: what is written to standard output next comes after them. */
export function flushLog(): void {
  writeBatch();
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
const requestLogger = logger.child({}, { redact: [], level: 'trace' });
/** `,"pid":…,"hostname":…`: the bindings pino writes after `time` on every line of this logger. */
const bindings = (requestLogger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];

export interface RequestLine {
  requestId: string; operationId: string; method: string; path: string; status: number; durationMs: number;
  traceId?: string; error?: Record<string, unknown>;
}
type RequestLevel = 'info' | 'warn' | 'error';

/**
 * Logs a request's line: the same line pino writes for these fields, key for key. The usual line (no failure, no
 * active trace to mix in) is put together here, at a third of pino's cost for a line of fixed keys.
 */
export function logRequest(level: RequestLevel, line: RequestLine, msg: string): void {
  if (line.error !== undefined || lineFields !== undefined) {
    requestLogger[level](line, msg);
    return;
  }
  const trace = line.traceId === undefined ? '' : `,"traceId":${JSON.stringify(line.traceId)}`;
  destination.write(`{"level":${logger.levels.values[level]},"time":${Date.now()}${bindings},"requestId":${JSON.stringify(line.requestId)},"operationId":${JSON.stringify(line.operationId)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},"status":${line.status},"durationMs":${line.durationMs}${trace},"msg":${JSON.stringify(msg)}}\n`);
}
