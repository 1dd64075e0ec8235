/**
 * Provider C of docs/contract.md §10: the Confluent Cloud REST API (https://docs.confluent.io/cloud/current/api.html) with
 * a Cloud API key (`Authorization: Basic base64(key:secret)`). Shapes as Confluent's OpenAPI documents define them
 * (github.com/confluentinc/ccloud-sdk-go-v2, {org,cmk,srcm}/v2/api/openapi.yaml):
 *   GET /org/v2/environments                      → {data: [{id, display_name}], metadata: {next?}}
 *   GET /cmk/v2/clusters?environment={id}         → {data: [{id, spec: {kafka_bootstrap_endpoint}}], metadata}
 *   GET /srcm/v2/clusters?environment={id}        → {data: [{id, spec: {http_endpoint}}], metadata}
 * Every list is paginated: `page_size` (at most 100) and an opaque `page_token`, which `metadata.next` carries.
 * The API has no read of topics, ACLs or subjects without per-cluster keys, so discovery and the wizard are refused.
 */
import { getJson } from './http';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  ProviderUnsupportedError,
  type ConfluentCloudConfig,
  type ProviderAdapter,
  type ProviderCluster,
  type ProviderEnvironment,
  type ProviderSettings,
} from './types';

const LABEL = 'CONFLUENT_CLOUD';
const PAGE_SIZE = 100;
/** 100 pages of 100 is far past any real organisation; the bound only stops a provider that never ends a list. */
const MAX_PAGES = 100;

type Json = Record<string, unknown>;

export function confluentCloudAdapter(config: ConfluentCloudConfig, settings: ProviderSettings): ProviderAdapter {
  const base = settings.confluentCloudApiUrl.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${config.apiKey}:${config.secret}`).toString('base64')}`;

  /**
   * Every item of a paginated list. Only the `page_token` of `metadata.next` is used, against the configured base:
   * `next` is an absolute URL, and following it as given would send the key to whatever host a reply names.
   * `what` names the list in a refusal. A 404 means there is nothing to list (e.g. no registry in an environment).
   */
  async function listAll(path: string, query: Record<string, string>, what: string): Promise<Json[]> {
    const items: Json[] = [];
    const seen = new Set<string>();
    let token: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = new URLSearchParams({ ...query, page_size: String(PAGE_SIZE) });
      if (token) params.set('page_token', token);
      const url = `${base}${path}?${params}`;
      const reply = await getJson(url, { label: LABEL, timeoutMs: settings.timeoutMs, headers: { authorization } });
      if (reply.status === 401) throw new ProviderRejectedError(`${LABEL}: the API key or secret is not valid (401)`);
      if (reply.status === 403) throw new ProviderRejectedError(`${LABEL}: the API key has no permission to list ${what} (403)`);
      if (reply.status === 404) return items;
      if (reply.status !== 200 || !isObject(reply.body)) {
        throw new ProviderUnavailableError(`${LABEL}: ${new URL(url).host} answered ${reply.status}${reply.status === 200 ? ' without a JSON object' : ''}`);
      }
      items.push(...asArray(reply.body.data).filter(isObject));
      token = pageTokenOf(asObject(reply.body.metadata).next);
      if (!token || seen.has(token)) return items;
      seen.add(token);
    }
    throw new ProviderUnavailableError(`${LABEL}: the list of ${what} did not end after ${MAX_PAGES} pages`);
  }

  async function environment(env: Json): Promise<ProviderEnvironment> {
    const id = env.id as string;
    const [clusters, registries] = await Promise.all([
      listAll('/cmk/v2/clusters', { environment: id }, `the Kafka clusters of environment ${id}`),
      listAll('/srcm/v2/clusters', { environment: id }, `the schema registries of environment ${id}`),
    ]);
    const schemaRegistryClusters = registries.filter(hasId).map((r) => cluster(r, 'http_endpoint'));
    return {
      environmentId: id,
      // The contract lists every registry of the environment with every Kafka cluster: Confluent Cloud has one
      // registry per environment, shared by all its clusters.
      services: clusters.filter(hasId).map((c) => ({ kafkaCluster: cluster(c, 'kafka_bootstrap_endpoint'), schemaRegistryClusters })),
    };
  }

  return {
    type: 'CONFLUENT_CLOUD',

    async validate(): Promise<ProviderEnvironment[]> {
      const environments = await listAll('/org/v2/environments', {}, 'environments');
      return Promise.all(environments.filter(hasId).map(environment));
    },

    async discover(): Promise<never> {
      throw new ProviderUnsupportedError('discoverResources is not supported for CONFLUENT_CLOUD');
    },

    async topics(): Promise<never> {
      throw new ProviderUnsupportedError('the topic wizard is not supported for CONFLUENT_CLOUD');
    },
  };
}

/** The `page_token` of a `metadata.next` link; null when there is no next page or the link is not a URL. */
function pageTokenOf(next: unknown): string | null {
  if (typeof next !== 'string' || next === '') return null;
  try {
    return new URL(next, 'https://next.invalid').searchParams.get('page_token') || null;
  } catch {
    return null;
  }
}

const cluster = (item: Json, endpoint: 'kafka_bootstrap_endpoint' | 'http_endpoint'): ProviderCluster => {
  const url = asObject(item.spec)[endpoint];
  return { id: item.id as string, url: typeof url === 'string' ? url : '' };
};
const hasId = (item: Json): boolean => typeof item.id === 'string' && item.id !== '';
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const asObject = (v: unknown): Json => (isObject(v) ? v : {});
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
