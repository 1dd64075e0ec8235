/**
 * Every line the service process writes from now on. The service logs through one pino logger (core/logger.ts)
 * whose destination is a SonicBoom stream on fd 1 (fs.writeSync, not process.stdout.write): its `write` is replaced
 * for the duration and the level raised to trace, so lines below the configured level are produced and checked
 * too; process.stdout/stderr and console are captured as well. The service runs in the test's own process, which
 * makes this complete; a canary line logged first proves the capture sees what the service logs.
 */
import pino from 'pino';
import { vi } from 'vitest';
import { logger } from '../../core/logger';

export interface LogCapture { lines: string[]; stop: () => void }

export function startLogCapture(): LogCapture {
  const lines: string[] = [];
  const stream = (logger as any)[pino.symbols.streamSym] as { write: (s: string) => boolean };
  const originalWrite = stream.write;
  stream.write = (s: string) => { lines.push(String(s)); return true; };
  const originalLevel = logger.level;
  logger.level = 'trace';
  const keep = (chunk: unknown) => { lines.push(typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk)); };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => { keep(chunk); return true; }) as any);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => { keep(chunk); return true; }) as any);
  const consoles = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => { keep(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')); }));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    stream.write = originalWrite;
    logger.level = originalLevel;
    stdout.mockRestore();
    stderr.mockRestore();
    for (const c of consoles) c.mockRestore();
  };
  return { lines, stop };
}
