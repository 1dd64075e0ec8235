/**
 * A loopback stand-in for the Aiven REST API v1, answering the read endpoints the AIVEN adapter uses with the
 * shapes of Aiven's OpenAPI document (see providers/aiven.ts): project, service list and get, Aiven ACLs, topic
 * list and get (config entries as `{value, source, synonyms}`), and the schema registry subjects and versions.
 * Data-driven; failure modes make any path answer 401/403/404/500 or hang (accept, never answer).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeAivenTopic {
  name: string;
  partitions: number;
  replication: number;
  /** Kafka settings under Aiven's names (`retention_ms`, `cleanup_policy`, `min_insync_replicas`…). */
  config?: Record<string, string | number | boolean>;
  /** Values the topic inherits, reported with `source: default_config`. */
  defaults?: Record<string, string | number | boolean>;
  /** Sent as the deprecated top-level `retention_hours`; with no `config.retention_ms` the API reports only this. */
  retentionHours?: number;
}
export interface FakeAivenSubject { name: string; versions: Array<{ version: number; schema: string; schemaType?: string }> }
export interface FakeAivenAcl { username: string; topic: string; permission: 'read' | 'write' | 'readwrite' | 'admin' }
export interface FakeAivenComponent { component: string; host: string; port: number; route?: string; usage?: string }
export interface FakeAivenService {
  name: string;
  type?: string;
  uri?: string;
  components?: FakeAivenComponent[];
  /** `user_config.schema_registry`. */
  schemaRegistry?: boolean;
  topics?: FakeAivenTopic[];
  acl?: FakeAivenAcl[];
  subjects?: FakeAivenSubject[];
}
export interface FakeAivenData {
  /** The one valid token; any other `Authorization` answers 401. */
  token: string;
  projects: Record<string, FakeAivenService[]>;
  /** Projects that exist but the token may not read: 403. */
  forbiddenProjects?: string[];
}

export type FakeFailure = 401 | 403 | 404 | 500 | 'hang';
export interface FakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The W3C trace context the caller sent, if any. */
  traceparent?: string;
}

export interface FakeAiven {
  url: string;
  requests: FakeRequest[];
  /** Answer every path (or those matching `on`) with `mode`; null restores normal answers. */
  fail: (mode: FakeFailure | null, on?: RegExp) => void;
  close: () => Promise<void>;
}

type Reply = [status: number, body: unknown];
const error = (status: number, message: string): Reply => [status, { message, errors: [{ message, status }] }];

export async function startFakeAiven(data: FakeAivenData): Promise<FakeAiven> {
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  let failure: { mode: FakeFailure; on?: RegExp } | null = null;

  const route = (req: IncomingMessage): Reply => {
    if (req.headers.authorization !== `aivenv1 ${data.token}`) return error(401, 'Invalid token');
    const parts = new URL(req.url ?? '/', 'http://fake').pathname.split('/').slice(1).map(decodeURIComponent);
    if (req.method !== 'GET' || parts[0] !== 'v1' || parts[1] !== 'project' || !parts[2]) return error(404, 'Not found');
    const [, , projectName, s, serviceName, ...rest] = parts;
    if (data.forbiddenProjects?.includes(projectName)) return error(403, 'Not authorized');
    const services = data.projects[projectName];
    if (!services) return error(404, 'Project does not exist');
    if (s === undefined) return [200, { project: { project_name: projectName } }];
    if (s !== 'service') return error(404, 'Not found');
    if (serviceName === undefined) return [200, { services: services.map(serviceOut) }];
    const service = services.find((x) => x.name === serviceName);
    if (!service) return error(404, 'Service does not exist');
    return serviceRoute(service, rest);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, traceparent: req.headers.traceparent as string | undefined });
    if (failure && (!failure.on || failure.on.test(req.url ?? ''))) {
      if (failure.mode === 'hang') return;
      const [status, body] = error(failure.mode, `failure ${failure.mode}`);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const [status, body] = route(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    fail: (mode, on) => { failure = mode === null ? null : { mode, on }; },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function serviceOut(s: FakeAivenService) {
  return {
    service_name: s.name,
    service_type: s.type ?? 'kafka',
    service_uri: s.uri ?? `${s.name}.aivencloud.com:12345`,
    state: 'RUNNING',
    components: (s.components ?? []).map((c) => ({ route: 'dynamic', usage: 'primary', ...c })),
    user_config: s.schemaRegistry === undefined ? {} : { schema_registry: s.schemaRegistry },
    acl: s.acl ?? [],
  };
}

function serviceRoute(service: FakeAivenService, rest: string[]): Reply {
  const path = rest.join('/');
  if (path === '') return [200, { service: serviceOut(service) }];
  if (path === 'acl') return [200, { acl: (service.acl ?? []).map((a, i) => ({ id: `acl${i}`, ...a })) }];
  if (path === 'topic') return [200, { topics: (service.topics ?? []).map(topicListOut) }];
  if (rest[0] === 'topic' && rest.length === 2) {
    const topic = service.topics?.find((t) => t.name === rest[1]);
    return topic ? [200, { topic: topicOut(topic) }] : error(404, 'Topic does not exist');
  }
  if (rest[0] === 'kafka' && rest[1] === 'schema') {
    if (!service.schemaRegistry) return error(404, 'Schema registry is not enabled');
    return schemaRoute(service.subjects ?? [], rest.slice(2));
  }
  return error(404, 'Not found');
}

function schemaRoute(subjects: FakeAivenSubject[], rest: string[]): Reply {
  if (rest.length === 1 && rest[0] === 'subjects') return [200, { subjects: subjects.map((s) => s.name) }];
  const subject = rest[0] === 'subjects' && rest[2] === 'versions' ? subjects.find((s) => s.name === rest[1]) : undefined;
  if (!subject) return error(404, 'Subject not found');
  if (rest.length === 3) return [200, { versions: subject.versions.map((v) => v.version) }];
  const version = rest.length === 4 ? subject.versions.find((v) => String(v.version) === rest[3]) : undefined;
  if (!version) return error(404, 'Version not found');
  return [200, { version: { id: 100 + version.version, subject: subject.name, version: version.version, schema: version.schema, ...(version.schemaType ? { schemaType: version.schemaType } : {}) } }];
}

function retentionHours(t: FakeAivenTopic): number {
  const ms = t.config?.retention_ms ?? t.defaults?.retention_ms;
  if (typeof ms === 'number') return ms < 0 ? -1 : Math.floor(ms / 3_600_000);
  return t.retentionHours ?? 168;
}

function topicListOut(t: FakeAivenTopic) {
  return {
    topic_name: t.name, partitions: t.partitions, replication: t.replication, retention_hours: retentionHours(t),
    retention_bytes: -1, min_insync_replicas: 1, cleanup_policy: String(t.config?.cleanup_policy ?? t.defaults?.cleanup_policy ?? 'delete'), state: 'ACTIVE', tags: [],
  };
}

function topicOut(t: FakeAivenTopic) {
  const entries = (values: FakeAivenTopic['config'], source: string) => Object.entries(values ?? {}).map(([k, value]) => [k, { value, source, synonyms: [] }]);
  const config = Object.fromEntries([...entries(t.defaults, 'default_config'), ...entries(t.config, 'topic_config')]);
  return {
    ...topicListOut(t),
    partitions: Array.from({ length: t.partitions }, (_, partition) => ({ partition, isr: t.replication, size: 0, earliest_offset: 0, latest_offset: 0, consumer_groups: [] })),
    config,
  };
}
