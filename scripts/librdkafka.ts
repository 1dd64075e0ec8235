/**
 * librdkafka for the tests' mock Kafka cluster (test/support/mock-kafka.ts), from the npm registry: the source bundled
 * in the node-rdkafka dev dependency, built with the machine's gcc, g++ and make by `npm install`'s postinstall
 * (`tsx scripts/librdkafka.ts`). node-rdkafka's own install script (its Node binding) is not run.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Librdkafka {
  /** node-rdkafka's bundled librdkafka source tree. */
  source: string;
  /** Where its build is installed: include/ and lib/. */
  prefix: string;
}

/**
 * The prefix lies beside the package, not in it: npm replaces the package's folder whenever it reads node_modules
 * from disk rather than from its hidden lockfile (the package's own package.json spells its version with a leading
 * "v", the lockfile without, so they never match), and a build outside that folder outlives it.
 */
export function librdkafka(): Librdkafka | undefined {
  let pkg: string;
  try {
    pkg = createRequire(import.meta.url).resolve('node-rdkafka/package.json');
  } catch {
    return undefined;
  }
  const { librdkafka: version } = JSON.parse(readFileSync(pkg, 'utf8')) as { librdkafka: string };
  const dir = path.dirname(pkg);
  const prefix = path.join(path.dirname(dir), '.cache', `librdkafka-${version}`);
  return { source: path.join(dir, 'deps', 'librdkafka'), prefix };
}

/**
 * Builds librdkafka into its prefix unless it is there (npm install's postinstall). Only what the mock cluster needs:
 * the C library without TLS, SASL, external codecs or HTTP, so no -dev package is read (librdkafka's configure also
 * insists on a C++ compiler).
 * A failure is one line on stderr, not a failed install: only the Kafka provider tests need the library.
 */
export function buildLibrdkafka(): void {
  const lib = librdkafka();
  if (!lib || existsSync(path.join(lib.prefix, 'lib', 'librdkafka.so'))) return;
  // Installed beside the prefix and renamed: an interrupted build never looks finished.
  const partial = `${lib.prefix}.${process.pid}.tmp`;
  const log = `${lib.prefix}.log`;
  mkdirSync(path.dirname(lib.prefix), { recursive: true });
  const out = openSync(log, 'w');
  const src = path.join(lib.source, 'src');
  const features = ['ssl', 'gssapi', 'zstd', 'zlib', 'curl', 'lz4-ext'].map((f) => `--disable-${f}`);
  const configure = [`--prefix=${partial}`, `--libdir=${path.join(partial, 'lib')}`, ...features];
  const steps: Array<[string, string, string[], string]> = [
    ['configure', './configure', configure, lib.source],
    ['make', 'make', ['-j', String(availableParallelism()), 'lib'], src],
    ['make install', 'make', ['lib-install'], src],
  ];
  try {
    for (const [step, command, args, cwd] of steps) {
      try {
        execFileSync(command, args, { cwd, stdio: ['ignore', out, out] });
      } catch (err) {
        const missing = (err as { code?: string }).code === 'ENOENT';
        throw new Error(missing ? `${command} not found` : `${step} failed, see ${log}`);
      }
    }
    renameSync(partial, lib.prefix);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    const reason = (err as Error).message;
    process.stderr.write(`mock Kafka cluster: librdkafka not built (${reason}); it needs gcc, g++ and make\n`);
  } finally {
    closeSync(out);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildLibrdkafka();
