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

/** Runs `code` (an ES module body with `logger`, `requestLogger` and `flushLog` in scope) and answers its standard output. */
function run(code: string, env: Record<string, string> = {}): Promise<{ out: string; code: number | null }> {
  const program = `import { logger, requestLogger, flushLog } from ${JSON.stringify(path.join(ROOT, 'core/logger.ts'))};\n${code}`;
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
    const { out, code } = await run('for (let i = 0; i < 500; i++) requestLogger.info({ n: i }, "request");\nprocess.exit(3);');
    expect(code).toBe(3);
    expect(lines(out).map((l) => JSON.parse(l).n)).toEqual(Array.from({ length: 500 }, (_, i) => i));
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
    const { out } = await run('logger.info("hidden");\nif (logger.isLevelEnabled("info")) requestLogger.info("request");\nlogger.warn("shown");', { LOG_LEVEL: 'warn' });
    expect(lines(out).map((l) => JSON.parse(l).msg)).toEqual(['shown']);
  });

  it('the request line is not redacted, the others are', async () => {
    const { out } = await run('requestLogger.info({ x: { password: "p" } }, "request");\nlogger.info({ x: { password: "p" } }, "other");');
    const [request, other] = lines(out).map((l) => JSON.parse(l));
    expect(request.x.password).toBe('p');
    expect(other.x.password).toBe('[Redacted]');
  });

  it('two processes logging long lines at once on one pipe: every line arrives whole', async () => {
    const code = 'const pad = "x".repeat(300);\nfor (let turn = 0; turn < 40; turn++) { for (let i = 0; i < 50; i++) requestLogger.info({ p: process.pid, turn, i, pad }, "request"); await new Promise((r) => setImmediate(r)); }';
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pms-log-'));
    const file = path.join(dir, 'writer.mjs');
    writeFileSync(file, `import { requestLogger } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'core/logger.ts')).href)};\n${code}`);
    // One pipe for both: a shell runs the two writers with their standard output on the same pipe.
    const writer = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(file)}`;
    const child = spawn('sh', ['-c', `${writer} & ${writer} & wait`], { cwd: ROOT, env: { PATH: process.env.PATH, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
    await new Promise((resolve) => child.on('close', resolve));
    const parsed = lines(out).map((l) => JSON.parse(l) as { p: number });
    expect(parsed).toHaveLength(4000);
    expect(new Set(parsed.map((l) => l.p)).size).toBe(2);
    rmSync(dir, { recursive: true, force: true });
  });
});
