/**
 * The `Svc-*` fields of a provider request (docs/contract.md §10) → one typed, checked provider configuration, or
 * every problem at once, each naming its field. Secrets never travel into a problem's `rejectedValue`.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { matchEnum } from '../core/rules/loose-enum';
import { BOOTSTRAP_SERVERS_MAX, HOST_MAX, shapeProblem } from './field-shapes';
import {
  PROVIDER_TYPES, type ApacheKafkaConfig, type BrokerProtocol, type KafkaBrokerConfig, type ProviderConfig,
  type ProviderType, type RegistryConfig,
} from './types';

export interface FieldProblem { field: string; message: string; rejectedValue?: unknown }
export type ParsedProvider = { ok: true; config: ProviderConfig } | { ok: false; problems: FieldProblem[] };

/** What the request is for: discovery and the wizard need an Aiven service, validation does not. */
export type ProviderPurpose = 'validate' | 'discover' | 'wizard';

const TYPE = 'Svc-Provider-Type';
const FIELDS: Record<ProviderType, readonly string[]> = {
  AIVEN: ['Svc-Project-Id-A', 'Svc-Auth-Token-A', 'Svc-Service-Name-A'],
  CONFLUENT_CLOUD: ['Svc-Api-Key-C', 'Svc-Secret-C'],
  APACHE_KAFKA: [
    'Svc-Bootstrap-Server-B', 'Svc-Broker-Protocol-Type-B', 'Svc-Broker-Security-Protocol-Type-B', 'Svc-Broker-Username-B',
    'Svc-Broker-Password-B', 'Svc-Broker-Private-Key-B', 'Svc-Broker-Cert-B', 'Svc-Broker-CA-Validation-B', 'Svc-Broker-Truststore-B',
    'Svc-Sr-Url-B', 'Svc-Sr-Protocol-Type-B', 'Svc-Sr-Username-B', 'Svc-Sr-Password-B', 'Svc-Sr-Cert-B', 'Svc-Sr-Private-Key-B',
    'Svc-Sr-CA-Validation-B', 'Svc-Sr-Truststore-B',
  ],
};
const KNOWN = new Set([TYPE, ...Object.values(FIELDS).flat()]);
/** Fields whose values are never echoed back. */
const SECRET = /Token|Secret|Password|Private-Key/;

const BROKER_PROTOCOLS: readonly BrokerProtocol[] = ['MTLS', 'SASL/PLAIN', 'SASL/SCRAM-SHA-256', 'SASL/SCRAM-SHA-512'];
const SECURITY_PROTOCOLS = ['SASL_PLAINTEXT', 'SASL_SSL'] as const;
const REGISTRY_PROTOCOLS = ['Basic-Auth', 'No-Auth', 'MTLS'] as const;
/** One `host:port` of a bootstrap list; IPv6 in brackets. */
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.\-_]*[A-Za-z0-9])?):(\d{1,5})$/;

class Reader {
  readonly problems: FieldProblem[] = [];
  constructor(private readonly body: Record<string, unknown>) {}

  problem(field: string, message: string): void {
    // A field read twice (is it given? then its value) reports its problem once.
    if (this.problems.some((p) => p.field === field && p.message === message)) return;
    const value = this.body[field];
    this.problems.push(SECRET.test(field) || value === undefined ? { field, message } : { field, message, rejectedValue: value });
  }

  /**
   * The field's text: absent, null and blank are "not given"; anything but a string, or a string outside the
   * field's shape (providers/field-shapes), is a problem.
   */
  text(field: string): string | undefined {
    const value = this.body[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') {
      this.problem(field, 'must be a string');
      return undefined;
    }
    if (value.trim() === '') return undefined;
    const misfit = shapeProblem(field, value);
    if (misfit) {
      this.problem(field, misfit);
      return undefined;
    }
    return value;
  }

  /** Whether the field has a value (a non-blank string, or something else, refused as not a string). */
  given(field: string): boolean {
    const value = this.body[field];
    if (typeof value === 'string') return value.trim() !== '';
    return this.text(field) !== undefined;
  }

  required(field: string, why = 'is required'): string | undefined {
    const value = this.text(field);
    if (value === undefined && !this.problems.some((p) => p.field === field)) this.problem(field, why);
    return value;
  }

  enumOf<T extends string>(field: string, values: readonly T[], required: boolean): T | undefined {
    const raw = required ? this.required(field) : this.text(field);
    if (raw === undefined) return undefined;
    const value = matchEnum(values, raw);
    if (value === undefined) this.problem(field, `must be one of ${values.join(', ')}`);
    return value;
  }

  flag(field: string): boolean | undefined {
    const raw = this.text(field);
    if (raw === undefined) return undefined;
    const lower = raw.trim().toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
    this.problem(field, 'must be "true" or "false"');
    return undefined;
  }

  /** Base64 of PEM text (or the PEM itself), checked to hold what `kind` says. */
  pem(field: string, kind: 'certificate' | 'key' | 'truststore', required: boolean): string | undefined {
    const raw = required ? this.required(field) : this.text(field);
    if (raw === undefined) return undefined;
    const pem = decodePem(raw);
    if (pem === undefined) {
      this.problem(field, 'must be Base64 of PEM text (-----BEGIN …)');
      return undefined;
    }
    const fault = kind === 'key' ? keyFault(pem) : certificatesFault(pem);
    if (fault) {
      this.problem(field, fault);
      return undefined;
    }
    return pem;
  }
}

export function decodePem(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (trimmed.startsWith('-----BEGIN ')) return trimmed;
  const compact = trimmed.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined;
  const text = Buffer.from(compact, 'base64').toString('utf8');
  return text.includes('-----BEGIN ') ? text.trim() : undefined;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function certificatesFault(pem: string): string | undefined {
  const blocks = pem.match(PEM_CERT) ?? [];
  if (blocks.length === 0) return 'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      return 'holds a certificate that cannot be parsed';
    }
  }
  return undefined;
}

function privateKey(pem: string): KeyObject | undefined {
  try {
    return createPrivateKey(pem);
  } catch {
    return undefined;
  }
}
const keyFault = (pem: string): string | undefined => (privateKey(pem) ? undefined : 'must hold an unencrypted PEM private key that can be parsed');

/** A client certificate whose key is another one fails only at the handshake: say so now. */
function pairFault(cert: string | undefined, key: string | undefined): boolean {
  if (!cert || !key) return false;
  const [first] = cert.match(PEM_CERT) ?? [];
  const keyObject = privateKey(key);
  if (!first || !keyObject) return false;
  try {
    return !new X509Certificate(first).checkPrivateKey(keyObject);
  } catch {
    return true;
  }
}

/**
 * `body` holds the `Svc-*` fields (top level for /providers/*, `providerConfigs` for the wizard). `where` prefixes
 * the field names in problems (`providerConfigs.`) so the caller finds them.
 */
export function parseProviderConfig(body: unknown, purpose: ProviderPurpose, where = ''): ParsedProvider {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, problems: [{ field: where.replace(/\.$/, '') || 'body', message: 'must be a JSON object of Svc-* fields' }] };
  }
  const fields = body as Record<string, unknown>;
  const r = new Reader(fields);
  const type = r.enumOf(TYPE, PROVIDER_TYPES, true);
  for (const name of Object.keys(fields)) {
    if (!KNOWN.has(name)) r.problem(name, 'is not a provider field');
    else if (type && name !== TYPE && !FIELDS[type].includes(name) && r.given(name)) r.problem(name, `does not apply to ${type}`);
  }
  let config: ProviderConfig | undefined;
  if (type === 'AIVEN') {
    const projectId = r.required('Svc-Project-Id-A');
    const token = r.required('Svc-Auth-Token-A');
    const serviceName = purpose === 'validate' ? r.text('Svc-Service-Name-A') : r.required('Svc-Service-Name-A', `is required for ${purpose === 'wizard' ? 'the topic wizard' : 'discoverResources'}`);
    if (projectId && token) config = { type, projectId: projectId.trim(), token, serviceName: serviceName?.trim() };
  } else if (type === 'CONFLUENT_CLOUD') {
    const apiKey = r.required('Svc-Api-Key-C');
    const secret = r.required('Svc-Secret-C');
    if (apiKey && secret) config = { type, apiKey: apiKey.trim(), secret };
  } else if (type === 'APACHE_KAFKA') {
    config = apacheKafka(r);
  }
  const problems = r.problems.map((p) => ({ ...p, field: `${where}${p.field}` }));
  if (problems.length > 0 || !config) return { ok: false, problems };
  return { ok: true, config };
}

function bootstrapServers(r: Reader): string[] | undefined {
  const raw = r.required('Svc-Bootstrap-Server-B');
  if (raw === undefined) return undefined;
  const servers = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (servers.length > BOOTSTRAP_SERVERS_MAX) {
    r.problem('Svc-Bootstrap-Server-B', `must list at most ${BOOTSTRAP_SERVERS_MAX} host:port addresses`);
    return undefined;
  }
  const bad = servers.find((s) => {
    const m = HOST_PORT.exec(s);
    return !m || m[1].length > HOST_MAX || Number(m[3]) < 1 || Number(m[3]) > 65535;
  });
  if (servers.length === 0 || bad !== undefined) {
    r.problem('Svc-Bootstrap-Server-B', `must be host:port, or several separated by commas${bad ? ` ("${bad}" is not)` : ''}`);
    return undefined;
  }
  return servers;
}

/** CA validation: "true" needs the truststore; "false" accepts any peer; absent validates with the truststore if given, else the system's CAs. */
function caValidation(r: Reader, flagField: string, truststoreField: string): { caValidation: boolean; truststore?: string } {
  const flag = r.flag(flagField);
  const given = r.given(truststoreField);
  const truststore = r.pem(truststoreField, 'truststore', false);
  if (flag === true && !given) r.problem(truststoreField, `is required when ${flagField} is "true"`);
  return { caValidation: flag ?? true, truststore };
}

function apacheKafka(r: Reader): ApacheKafkaConfig | undefined {
  const bootstrap = bootstrapServers(r);
  const protocol = r.enumOf('Svc-Broker-Protocol-Type-B', BROKER_PROTOCOLS, true);
  const tls = caValidation(r, 'Svc-Broker-CA-Validation-B', 'Svc-Broker-Truststore-B');
  let broker: KafkaBrokerConfig | undefined;
  if (protocol === 'MTLS') {
    const cert = r.pem('Svc-Broker-Cert-B', 'certificate', true);
    const privateKeyPem = r.pem('Svc-Broker-Private-Key-B', 'key', true);
    if (pairFault(cert, privateKeyPem)) r.problem('Svc-Broker-Private-Key-B', 'is not the key of Svc-Broker-Cert-B');
    broker = { protocol, ...tls, cert, privateKey: privateKeyPem };
  } else if (protocol) {
    const securityProtocol = r.enumOf('Svc-Broker-Security-Protocol-Type-B', SECURITY_PROTOCOLS, true);
    const username = r.required('Svc-Broker-Username-B');
    const password = r.required('Svc-Broker-Password-B');
    broker = { protocol, ...tls, securityProtocol, username, password };
  }
  const unused = protocol === 'MTLS' ? ['Svc-Broker-Security-Protocol-Type-B', 'Svc-Broker-Username-B', 'Svc-Broker-Password-B'] : protocol ? ['Svc-Broker-Cert-B', 'Svc-Broker-Private-Key-B'] : [];
  for (const f of unused) if (r.given(f)) r.problem(f, `does not apply with ${protocol}`);
  const registry = registryConfig(r);
  if (!bootstrap || !broker) return undefined;
  return { type: 'APACHE_KAFKA', bootstrapServers: bootstrap, broker, registry };
}

function registryConfig(r: Reader): RegistryConfig | undefined {
  const url = r.text('Svc-Sr-Url-B');
  if (url === undefined) {
    for (const f of FIELDS.APACHE_KAFKA.filter((n) => n.startsWith('Svc-Sr-') && n !== 'Svc-Sr-Url-B')) {
      if (r.given(f)) r.problem(f, 'needs Svc-Sr-Url-B (the schema registry address)');
    }
    return undefined;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.trim());
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.username || parsed.password) {
    r.problem('Svc-Sr-Url-B', 'must be an http(s) URL without credentials in it');
  }
  const protocol = r.enumOf('Svc-Sr-Protocol-Type-B', REGISTRY_PROTOCOLS, false) ?? 'No-Auth';
  const tls = caValidation(r, 'Svc-Sr-CA-Validation-B', 'Svc-Sr-Truststore-B');
  const registry: RegistryConfig = { url: url.trim().replace(/\/+$/, ''), protocol, ...tls };
  if (protocol === 'Basic-Auth') {
    registry.username = r.required('Svc-Sr-Username-B', 'is required with Basic-Auth');
    registry.password = r.required('Svc-Sr-Password-B', 'is required with Basic-Auth');
  } else if (protocol === 'MTLS') {
    registry.cert = r.pem('Svc-Sr-Cert-B', 'certificate', true);
    registry.privateKey = r.pem('Svc-Sr-Private-Key-B', 'key', true);
    if (pairFault(registry.cert, registry.privateKey)) r.problem('Svc-Sr-Private-Key-B', 'is not the key of Svc-Sr-Cert-B');
  }
  if (protocol === 'MTLS' && parsed?.protocol === 'http:') r.problem('Svc-Sr-Url-B', 'must be https with MTLS');
  const unused = protocol === 'Basic-Auth' ? ['Svc-Sr-Cert-B', 'Svc-Sr-Private-Key-B'] : protocol === 'MTLS' ? ['Svc-Sr-Username-B', 'Svc-Sr-Password-B'] : ['Svc-Sr-Username-B', 'Svc-Sr-Password-B', 'Svc-Sr-Cert-B', 'Svc-Sr-Private-Key-B'];
  for (const f of unused) if (r.given(f)) r.problem(f, `does not apply with ${protocol}`);
  return registry;
}
