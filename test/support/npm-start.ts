/**
 * `npm start` as an operator runs it (its build step, then the bundle), in a process group of its own so one signal
 * reaches npm, the service and its workers: what it printed, how it exited, and a stop.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface NpmStart {
  /** npm's process id, also its process group's. */
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /** The exit code (null: ended by a signal). */
  exited: Promise<number | null>;
  /** Resolves once stdout contains `text`; rejects when the service exits first or after `ms`. */
  printed: (text: string, ms?: number) => Promise<void>;
  /** SIGTERM to the whole group, then waits for npm to exit. */
  stop: () => Promise<void>;
}

/** `env` over this process's environment; an undefined value removes the variable (DATABASE_URL, say). */
export function npmStart(env: Record<string, string | undefined>): NpmStart {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
  const child = spawn('npm', ['start'], { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => { stdout += String(d); });
  child.stderr!.on('data', (d) => { stderr += String(d); });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let done = false;
  void exited.then(() => { done = true; });
  return {
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async printed(text, ms = 90_000) {
      for (const deadline = Date.now() + ms; !stdout.includes(text);) {
        if (done || Date.now() > deadline) throw new Error(`npm start never printed ${JSON.stringify(text)}:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (!done) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
