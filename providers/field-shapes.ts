/**
 * The shape and length of every `Svc-*` field (docs/contract.md §10), as its provider documents it. A value outside
 * them is refused naming its field before any call goes out: it could only be refused by the provider later, and
 * on the way it would become part of a URL, a header or a handshake. The OpenAPI document (ProviderFields) declares
 * the same bounds as `maxLength` and `pattern`.
 *
 * Lengths count Unicode code points, as the document's validator does.
 */

export interface FieldShape {
  /** At most this many characters, counted before any trimming. */
  max: number;
  /** What the value (trimmed, for the fields `TRIMMED` names) must match; none: any text within `max`. */
  pattern?: RegExp;
  /** The shape in words, for the refusal. */
  says: string;
}

/** No C0 control character and no DEL: SASLprep (SCRAM) prohibits them, SASL/PLAIN separates with NUL, headers break on CR/LF. */
const NO_CONTROL = /^[^\x00-\x1f\x7f]*$/;

/** A PEM certificate chain of a few certificates, Base64-encoded, fits many times over. */
const PEM_MAX = 64 * 1024;
/** A truststore may be a whole public CA bundle (about 150 certificates). */
const TRUSTSTORE_MAX = 512 * 1024;
/** The loosely matched enumerations and flags ("SASL/SCRAM-SHA-512", "true"). */
const CHOICE_MAX = 32;

export const FIELD_SHAPES: Readonly<Record<string, FieldShape>> = {
  // Aiven's API bounds project names at 63 characters; its Kubernetes operator allows letters, digits, _ and -.
  'Svc-Project-Id-A': { max: 63, pattern: /^[A-Za-z0-9_-]+$/, says: 'must be an Aiven project name: letters, digits, _ and -, at most 63 characters' },
  // Aiven service names start with a lowercase letter, then lowercase letters, digits and dashes, at most 63.
  'Svc-Service-Name-A': { max: 63, pattern: /^[a-z][a-z0-9-]*$/, says: 'must be an Aiven service name: a lowercase letter, then lowercase letters, digits and -, at most 63 characters' },
  // Aiven tokens are Base64 text (with /, + and =), sent in the Authorization header.
  'Svc-Auth-Token-A': { max: 1024, pattern: /^[\x20-\x7e]+$/, says: 'must be an Aiven API token: printable ASCII, at most 1024 characters' },
  // Confluent Cloud: an API key ID is 16 uppercase letters and digits; a secret is 64 characters of A-Z, a-z, 0-9, + and /.
  'Svc-Api-Key-C': { max: 16, pattern: /^[A-Z0-9]{16}$/, says: 'must be a Confluent Cloud API key: 16 uppercase letters and digits' },
  'Svc-Secret-C': { max: 64, pattern: /^[A-Za-z0-9+/]{64}$/, says: 'must be a Confluent Cloud API secret: 64 characters of A-Z, a-z, 0-9, + and /' },
  // The list's entries are checked one by one (providers/fields.ts): host:port, at most BOOTSTRAP_SERVERS_MAX of them.
  'Svc-Bootstrap-Server-B': { max: 4096, says: 'must be at most 4096 characters' },
  'Svc-Broker-Protocol-Type-B': { max: CHOICE_MAX, says: `must be at most ${CHOICE_MAX} characters` },
  'Svc-Broker-Security-Protocol-Type-B': { max: CHOICE_MAX, says: `must be at most ${CHOICE_MAX} characters` },
  'Svc-Broker-Username-B': { max: 255, pattern: NO_CONTROL, says: 'must be at most 255 characters without control characters' },
  'Svc-Broker-Password-B': { max: 1024, pattern: NO_CONTROL, says: 'must be at most 1024 characters without control characters' },
  'Svc-Broker-Private-Key-B': { max: PEM_MAX, says: `must be at most ${PEM_MAX} characters` },
  'Svc-Broker-Cert-B': { max: PEM_MAX, says: `must be at most ${PEM_MAX} characters` },
  'Svc-Broker-CA-Validation-B': { max: CHOICE_MAX, says: `must be at most ${CHOICE_MAX} characters` },
  'Svc-Broker-Truststore-B': { max: TRUSTSTORE_MAX, says: `must be at most ${TRUSTSTORE_MAX} characters` },
  'Svc-Sr-Url-B': { max: 2048, says: 'must be at most 2048 characters' },
  'Svc-Sr-Protocol-Type-B': { max: CHOICE_MAX, says: `must be at most ${CHOICE_MAX} characters` },
  // HTTP Basic (RFC 7617): the user-id cannot hold a colon.
  'Svc-Sr-Username-B': { max: 255, pattern: /^[^\x00-\x1f\x7f:]*$/, says: 'must be at most 255 characters without control characters or ":"' },
  'Svc-Sr-Password-B': { max: 1024, pattern: NO_CONTROL, says: 'must be at most 1024 characters without control characters' },
  'Svc-Sr-Cert-B': { max: PEM_MAX, says: `must be at most ${PEM_MAX} characters` },
  'Svc-Sr-Private-Key-B': { max: PEM_MAX, says: `must be at most ${PEM_MAX} characters` },
  'Svc-Sr-CA-Validation-B': { max: CHOICE_MAX, says: `must be at most ${CHOICE_MAX} characters` },
  'Svc-Sr-Truststore-B': { max: TRUSTSTORE_MAX, says: `must be at most ${TRUSTSTORE_MAX} characters` },
};

/** Fields whose value is used trimmed, so the shape applies to the trimmed text. */
export const TRIMMED = new Set(['Svc-Project-Id-A', 'Svc-Service-Name-A', 'Svc-Api-Key-C']);

/** Kafka clients are given a few brokers to start from; a longer list is a mistake, not a cluster. */
export const BOOTSTRAP_SERVERS_MAX = 50;
/** A DNS name is at most 253 characters (RFC 1035). */
export const HOST_MAX = 253;

/** `s` has more than `max` code points; counts only as far as it must. */
export function longerThan(s: string, max: number): boolean {
  if (s.length <= max) return false;
  let n = 0;
  for (const _ of s) if (++n > max) return true;
  return false;
}

/** Why a given (non-blank) value of `field` is refused, or undefined. */
export function shapeProblem(field: string, value: string): string | undefined {
  const shape = FIELD_SHAPES[field];
  if (!shape) return undefined;
  if (longerThan(value, shape.max)) return shape.says;
  const checked = TRIMMED.has(field) ? value.trim() : value;
  return shape.pattern && !shape.pattern.test(checked) ? shape.says : undefined;
}
