/**
 * A real Kafka protocol endpoint for tests without a JVM: librdkafka's mock cluster, driven by mock-kafka.c.
 * The program is compiled once per version of its source (the cache key is the source's hash) into a directory
 * of os.tmpdir() owned by the current user, so root and normal users never share or clobber one binary.
 *
 * What the mock cluster (librdkafka 2.0) does and does not do, as seen through kafkajs:
 * - Metadata, ApiVersions, Produce/Fetch, groups: yes — describeCluster, listTopics, fetchTopicMetadata work.
 * - DescribeAcls, DescribeConfigs, CreateTopics, SASL, TLS: no. It also names a controller id no broker has, so
 *   kafkajs' controller-bound admin calls fail before sending anything.
 * - Replication: librdkafka 2.0 gives every partition min(3, brokers) replicas whatever the topic asked for;
 *   tests that check the replication factor ask for exactly that.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
const INSTALL_HINT = 'librdkafka mock cluster unavailable: install its headers and a C compiler (apt-get install librdkafka-dev gcc)';

let built: string | undefined;

/** Path of the compiled program, building it when its source changed since the last build. */
export function mockKafkaBinary(): string {
  if (built) return built;
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = path.join(tmpdir(), `mock-kafka-${userInfo().uid}`);
  const binary = path.join(dir, `mock-kafka-${hash}`);
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Build beside the target and rename: parallel test files never run a half-written binary.
    const partial = `${binary}.${process.pid}.tmp`;
    try {
      execFileSync('gcc', ['-O1', '-o', partial, SOURCE, '-lrdkafka'], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const e = err as { code?: string; stderr?: Buffer };
      const stderr = e.stderr?.toString() ?? '';
      if (e.code === 'ENOENT' || /rdkafka(_mock)?\.h|-lrdkafka|cannot find/.test(stderr)) {
        throw new Error(`${INSTALL_HINT}\n${stderr.trim()}`);
      }
      throw new Error(`compiling ${SOURCE} failed:\n${stderr.trim()}`);
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
