/** `npm run admin` as a shell runs it, for the tests of the admin commands. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './npm-start';

export interface AdminRun { code: number; stdout: string; stderr: string }

/**
 * `tsx scripts/admin.ts …` (what `npm run admin -- …` runs), or npm itself with `npm: true`; `env` over this
 * process's environment, an undefined value removing the variable.
 */
export function runAdmin(args: string[], env: Record<string, string | undefined> = {}, npm = false): Promise<AdminRun> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
  const [file, argv] = npm ? ['npm', ['run', '--silent', 'admin', '--', ...args]] : [path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin.ts', ...args]];
  return new Promise((resolve) => {
    execFile(file, argv, { cwd: ROOT, env: merged, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
