/**
 * The bench's child processes: started in their own process group (so a whole tree, cluster workers included, is
 * stopped with one signal and the terminal's Ctrl-C reaches only the bench), remembered until they exit, and
 * measured by the resident memory of their process tree as /proc tells it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const running = new Set<ChildProcess>();

/** Only what a process needs to run: the bench's own settings (DATABASE_URL, PORT…) must not leak into a child. */
const inherited = () => Object.fromEntries(['PATH', 'HOME', 'TMPDIR', 'LANG'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]));

/** A TypeScript file of this repository under Node with the tsx loader: one process, so its RSS is the script's. */
export function spawnScript(script: string, env: Record<string, string>, stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  return spawnNode(['--import', 'tsx', path.join(ROOT, script)], env, stdin);
}

function spawnNode(args: string[], env: Record<string, string>, stdin: 'ignore' | 'pipe', out: 'ignore' | 'pipe' = 'pipe'): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: ROOT, env: { ...inherited(), ...env }, stdio: [stdin, out, 'pipe'], detached: true,
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** `npm start`'s first step, package.json's `prestart`: the service's bundle (once per bench; not part of a cold start). */
export function buildService(): void {
  built ??= (execFileSync('npm', ['run', '--silent', 'prestart'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }), true);
}
let built: true | undefined;

/**
 * The service exactly as `npm start` runs it after the build: package.json's `start` (`[NAME=value …] node <flags>
 * <bundle>`) with its environment and flags (`nodeFlags` added: a CPU profile). Node directly rather than through
 * npm, so the process measured is the service's.
 */
export function spawnStart(env: Record<string, string>, nodeFlags: string[] = []): ChildProcess {
  const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const words = scripts.start.trim().split(/\s+/);
  const assignments = words.slice(0, words.indexOf('node')).map((w) => /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(w));
  if (!words.includes('node') || assignments.some((a) => a === null)) throw new Error(`package.json scripts.start is not "[NAME=value …] node … <file>": ${scripts.start}`);
  const start = words.slice(assignments.length);
  const startEnv = Object.fromEntries(assignments.map((a) => [a![1], a![2]]));
  return spawnNode([...start.slice(1, -1), ...nodeFlags, path.join(ROOT, start.at(-1)!)], { ...startEnv, ...env }, 'ignore', process.env.BENCH_STDOUT_NULL ? 'ignore' : 'pipe');
}

/** The last lines a child wrote, for the error that explains why it stopped. */
export function tailOf(child: ChildProcess): () => string {
  let text = '';
  const add = (chunk: Buffer) => { text = (text + chunk.toString('utf8')).slice(-4_000); };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => text.trim();
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch { /* already gone */ }
}

/** SIGTERM to the child's group, SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (!exited(child)) {
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    await done;
    clearTimeout(timer);
  }
  // Cluster workers outlive a primary that was killed; the group holds them still.
  signalGroup(child, 'SIGKILL');
}

export const stopAll = () => Promise.all([...running].map((c) => stopChild(c, 5_000)));
/** For process.on('exit'), where nothing can be awaited. */
export function killAllNow(): void {
  for (const child of running) signalGroup(child, 'SIGKILL');
}

/** A process and its descendants, through /proc/<pid>/task/<tid>/children (a child belongs to the thread that forked it). */
export function tree(root: number): number[] {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      } catch { /* the task ended meanwhile */ }
    }
  }
  return pids;
}

/** How many processes the tree of `root` has now (the API in cluster mode: a primary and its workers). */
export const processCount = (root: number) => tree(root).length;

/** CPU time the tree of `root` has used, in clock ticks (1/100 s on Linux). */
export function cpuTicks(root: number): number {
  let ticks = 0;
  for (const pid of tree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* ended meanwhile */ }
  }
  return ticks;
}

/**
 * Resolves once the tree of `root` has used under a tenth of a core for half a second (a worker still starting
 * would otherwise share the CPU with the first measurement), or after `maxMs`.
 */
export async function settle(root: number, maxMs = 60_000): Promise<void> {
  if (!readable(`/proc/${root}/stat`)) return;
  const until = Date.now() + maxMs;
  let last = cpuTicks(root);
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuTicks(root);
    if (now - last < 5) return;
    last = now;
  }
}

/** A process's resident memory now, in KiB (0 once it has ended). */
export function rssKiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export interface Rss { tree: number; largest: number }

/** Samples the tree's RSS every 250 ms until the returned function is called; the maxima in MiB (null without /proc). */
export function sampleRss(root: number | undefined): () => Rss | null {
  if (root === undefined || !readable(`/proc/${root}/status`)) return () => null;
  const max: Rss = { tree: 0, largest: 0 };
  const sample = () => {
    const sizes = tree(root).map(rssKiB);
    max.tree = Math.max(max.tree, sizes.reduce((a, b) => a + b, 0) / 1024);
    max.largest = Math.max(max.largest, Math.max(...sizes) / 1024);
  };
  sample();
  const timer = setInterval(sample, 250);
  return () => {
    clearInterval(timer);
    sample();
    return max;
  };
}

function readable(file: string): boolean {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}
