/**
 * A real Kafka protocol endpoint for tests without a JVM: librdkafka's mock cluster, driven by mock-kafka.c.
 * librdkafka comes from the npm registry as source, bundled in the node-rdkafka dev dependency (whose own install
 * script, the Node binding, is not run); npm install's postinstall builds it with the machine's gcc, g++ and make,
 * so no system package is needed. The program is compiled against exactly that build (an rpath to it, ahead of
 * LD_LIBRARY_PATH and the system's librdkafka), once per version of its source and of that library, into a directory
 * of os.tmpdir() owned by the current user, so root and normal users never share or clobber one binary.
 *
 * What the mock cluster (librdkafka 2.12) does and does not do, as seen through kafkajs:
 * - Metadata, ApiVersions, Produce/Fetch, groups: yes — describeCluster, listTopics, fetchTopicMetadata work.
 * - DescribeAcls, DescribeConfigs, CreateTopics, SASL, TLS: no. It also names a controller id no broker has, so
 *   kafkajs' controller-bound admin calls fail before sending anything.
 * - Replication: each partition gets as many replicas as its topic asks for (mock-kafka.c refuses more than brokers).
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { librdkafka } from '../../scripts/librdkafka';

export interface MockTopic { name: string; partitions: number; replication: number }

export interface MockKafka {
  /** Comma-separated `host:port` of every broker, as librdkafka prints them. */
  bootstrap: string;
  /** The same, one entry per broker. */
  brokers: string[];
  /** Closes the program's stdin and waits for it to exit. */
  stop(): Promise<void>;
}

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mock-kafka.c');
const INSTALL_HINT =
  "librdkafka mock cluster unavailable: npm install builds librdkafka from node-rdkafka's source with gcc, g++ and " +
  'make (once they are there: npm run postinstall, or tsx scripts/librdkafka.ts)';

/** The installed librdkafka's prefix, or an error saying how to get it. */
function librdkafkaPrefix(): string {
  const lib = librdkafka();
  if (!lib) throw new Error(`${INSTALL_HINT} [node-rdkafka is not installed]`);
  const parts = [path.join('include', 'librdkafka', 'rdkafka_mock.h'), path.join('lib', 'librdkafka.so')];
  if (!parts.every((part) => existsSync(path.join(lib.prefix, part)))) {
    throw new Error(`${INSTALL_HINT} [nothing in ${lib.prefix}]`);
  }
  return lib.prefix;
}

let built: string | undefined;

/** Path of the compiled program, building it when its source or the library changed since the last build. */
export function mockKafkaBinary(): string {
  if (built) return built;
  const prefix = librdkafkaPrefix();
  const lib = path.join(prefix, 'lib');
  const so = statSync(path.join(lib, 'librdkafka.so'));
  // The rpath names this checkout's library, so the cache key covers where it is and which build it is.
  const hash = createHash('sha256')
    .update(readFileSync(SOURCE))
    .update(`\0${lib}\0${so.size}\0${so.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(tmpdir(), `mock-kafka-${userInfo().uid}`);
  const binary = path.join(dir, `mock-kafka-${hash}`);
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Build beside the target and rename: parallel test files never run a half-written binary.
    const partial = `${binary}.${process.pid}.tmp`;
    // -I and -L come before the system's directories; --disable-new-dtags writes DT_RPATH, which the loader
    // searches before LD_LIBRARY_PATH (DT_RUNPATH comes after it). -Xlinker keeps a comma in the path whole.
    const args = ['-O1', '-o', partial, SOURCE, `-I${path.join(prefix, 'include')}`, `-L${lib}`, '-lrdkafka'];
    const linker = ['-rpath', lib, '--disable-new-dtags'].flatMap((a) => ['-Xlinker', a]);
    try {
      execFileSync('gcc', [...args, ...linker], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const e = err as { code?: string; stderr?: Buffer };
      if (e.code === 'ENOENT') throw new Error(`${INSTALL_HINT} [gcc not found]`);
      throw new Error(`compiling ${SOURCE} failed:\n${e.stderr?.toString().trim() ?? ''}`);
    }
    renameSync(partial, binary);
  }
  built = binary;
  return binary;
}

/** Starts a mock cluster with `brokers` brokers and the given topics. */
export async function startMockKafka(brokers: number, topics: MockTopic[] = []): Promise<MockKafka> {
  const binary = mockKafkaBinary();
  const args = [String(brokers), ...topics.map((t) => `${t.name}:${t.partitions}:${t.replication}`)];
  const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  // librdkafka logs protocol errors of clients it does not like (e.g. a TLS hello): keep them for a failure message only.
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const bootstrap = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`mock-kafka printed no bootstrap servers within 10 s\n${stderr}`)), 10_000);
    const onError = (err: Error) => fail(err);
    const onExit = (code: number | null) => fail(new Error(`mock-kafka exited with ${code} before it was ready\n${stderr}`));
    const done = () => {
      clearTimeout(timer);
      child.off('error', onError);
      child.off('exit', onExit);
    };
    const fail = (err: Error) => {
      done();
      child.kill('SIGKILL');
      reject(err);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) {
        done();
        resolve(out.slice(0, newline).trim());
      }
    });
    child.once('error', onError);
    child.once('exit', onExit);
  });

  return {
    bootstrap,
    brokers: bootstrap.split(','),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// npm install's postinstall runs this file to build librdkafka.
