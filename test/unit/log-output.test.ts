/**
 * The service's standard output (core/logger): lines leave at the end of the event loop's turn, so what a process
 * logs must still arrive whole, in order, before whatever it writes next, and before it exits, however it exits;
 * and the lines of several processes sharing one pipe (the workers of `npm start`) must never tear.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

/** A request line's fields as server/telemetry/requests logs them, `path` and `requestId` given. */
const LINE = 'const line = (requestId, path = "/api/clusters", more = {}) => ({ requestId: String(requestId), operationId: "getClusters", method: "GET", path, status: 200, durationMs: 1.5, ...more });';

/** Runs `code` (an ES module body with `logger`, `logRequest`, `flushLog` and `line` in scope) and answers its standard output. */
function run(code: string, env: Record<string, string> = {}): Promise<{ out: string; code: number | null }> {
  const program = `import { logger, logRequest, flushLog, soleWriter } from ${JSON.stringify(path.join(ROOT, 'core/logger.ts'))};\n${LINE}\n${code}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: ROOT, env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
  return new Promise((resolve) => child.on('close', (exit) => resolve({ out, code: exit })));
}

const lines = (out: string) => out.split('\n').filter((l) => l !== '');

describe('log lines on standard output', () => {
  it('a process that exits at once still writes every line it logged, in order', async () => {
    const { out, code } = await run('for (let i = 0; i < 500; i++) logRequest("info", line(i), "request");\nprocess.exit(3);');
    expect(code).toBe(3);
    expect(lines(out).map((l) => Number(JSON.parse(l).requestId))).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it('a sole writer (WORKERS=1) batches up to 64 KiB: every line still arrives whole, in order, idle or exiting', async () => {
    const { out, code } = await run('soleWriter();\nfor (let i = 0; i < 2000; i++) logRequest("info", line(i, "/p/" + "x".repeat(i % 300)), "request");\nawait new Promise((r) => setTimeout(r, 100));\nfor (let i = 2000; i < 2500; i++) logRequest("info", line(i), "request");\nprocess.exit(0);');
    expect(code).toBe(0);
    expect(lines(out).map((l) => Number(JSON.parse(l).requestId))).toEqual(Array.from({ length: 2500 }, (_, i) => i));
  });

  it('an uncaught error: the lines before it are written', async () => {
    const { out, code } = await run('logger.info("before");\nthrow new Error("boom");');
    expect(code).not.toBe(0);
    expect(lines(out).map((l) => JSON.parse(l).msg)).toEqual(['before']);
  });

  it('flushLog: text written to standard output afterwards comes after the lines', async () => {
    const { out } = await run('logger.info("first");\nlogger.info("second");\nflushLog();\nprocess.stdout.write("banner\\n");\nlogger.info("third");');
    expect(lines(out).map((l) => (l.startsWith('{') ? JSON.parse(l).msg : l))).toEqual(['first', 'second', 'banner', 'third']);
  });

  it('a line logged while the process idles is written without waiting for more', async () => {
    const { out } = await run('logger.info("alone");\nsetTimeout(() => { process.stdout.write("later\\n"); process.exit(0); }, 300);');
    expect(lines(out)[0]).toContain('"alone"');
    expect(lines(out)[1]).toBe('later');
  });

  it('below the level nothing is written, and the request line obeys the root\'s level', async () => {
    const { out } = await run('logger.info("hidden");\nif (logger.isLevelEnabled("info")) logRequest("info", line(1), "request");\nlogger.warn("shown");', { LOG_LEVEL: 'warn' });
    expect(lines(out).map((l) => JSON.parse(l).msg)).toEqual(['shown']);
  });

  it('the request line is, key for key, the line pino writes for its fields; other lines are redacted', async () => {
    const odd = { path: '/api/a"b\\c/\u00e9\u2028\n\u0001\ud800', id: 'id "quoted"\t' };
    const { out } = await run([
      'const plain = logger.child({}, { redact: [] });',
      `const cases = [line("a"), line(${JSON.stringify(odd.id)}, ${JSON.stringify(odd.path)}), line("b", "/x", { traceId: "0af7651916cd43dd8448eb211c80319c" }), line("c", "/y", { status: 0 })];`,
      'for (const c of cases) { logRequest(c.status === 0 ? "warn" : "info", c, c.status === 0 ? "request abandoned" : "request"); plain[c.status === 0 ? "warn" : "info"](c, c.status === 0 ? "request abandoned" : "request"); }',
      'logger.info({ x: { password: "p" } }, "other");',
    ].join('\n'));
    const all = lines(out);
    expect(all).toHaveLength(9);
    const untimed = (l: string) => l.replace(/"time":\d+/, '"time":0');
    for (let i = 0; i < 8; i += 2) expect(untimed(all[i])).toBe(untimed(all[i + 1]));
    expect(JSON.parse(all[2])).toMatchObject({ requestId: odd.id, path: odd.path });
    expect(JSON.parse(all[6])).toMatchObject({ level: 40, status: 0, msg: 'request abandoned' });
    expect(JSON.parse(all[8]).x.password).toBe('[Redacted]');
  });

  it('two processes logging long lines at once on one pipe: every line arrives whole', async () => {
    const code = 'const pad = "x".repeat(300);\nfor (let turn = 0; turn < 40; turn++) { for (let i = 0; i < 50; i++) logRequest("info", { requestId: `${process.pid} ${turn} ${i}`, operationId: "op", method: "GET", path: pad, status: 200, durationMs: 1 }, "request"); await new Promise((r) => setImmediate(r)); }';
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pms-log-'));
    const file = path.join(dir, 'writer.mjs');
    writeFileSync(file, `import { logRequest } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'core/logger.ts')).href)};\n${code}`);
    // One pipe for both: a shell runs the two writers with their standard output on the same pipe.
    const writer = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(file)}`;
    const child = spawn('sh', ['-c', `${writer} & ${writer} & wait`], { cwd: ROOT, env: { PATH: process.env.PATH, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
    await new Promise((resolve) => child.on('close', resolve));
    const parsed = lines(out).map((l) => JSON.parse(l) as { requestId: string });
    expect(parsed).toHaveLength(4000);
    expect(new Set(parsed.map((l) => l.requestId.split(' ')[0])).size).toBe(2);
    rmSync(dir, { recursive: true, force: true });
  });
});
