/**
 * What an uploaded application principal holds (docs/contract.md §5.11): a PEM certificate chain, leaf first, with an
 * optional private key, or a custom (OAUTH) principal string. Pure: `now` comes in, nothing is stored here.
 */
import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';

export interface ParsedPrincipal {
  /** The leaf's subject DN as RFC 4514 writes it, most specific RDN first: what Kafka sees as the principal. */
  principal: string;
  /** The chain with everything between the certificates dropped, one PEM block per certificate. */
  applicationPem: string;
  /** The leaf's notAfter. */
  expiresOn: Date;
  /** SHA-256 of the leaf's DER, lowercase hex: the identity duplicates are found by. */
  fingerprint: string;
}

export type PrincipalField = 'principal' | 'privateKey';

export type PrincipalOutcome =
  | ({ kind: 'parsed' } & ParsedPrincipal)
  | { kind: 'refused'; field: PrincipalField; message: string };

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/**
 * Reads a chain and, when given, checks that the private key belongs to its leaf. A blank `privateKey` counts as
 * none. Only an expired leaf is refused for its dates: a certificate that is not valid yet will be, and the
 * rest of the chain is the cluster's business.
 */
export function parsePrincipalCertificates(pem: unknown, privateKey: unknown, now: Date): PrincipalOutcome {
  const chain = readChain(pem);
  if (typeof chain === 'string') return refuse('principal', chain);
  const leaf = chain[0];

  // Node reports an empty subject as undefined, whatever its typings say.
  const principal = rfc4514(leaf.subject ?? '');
  if (principal === '') return refuse('principal', 'the leaf certificate has an empty subject, so there is no principal to take from it');
  if (chain.length > 1 && !leaf.checkIssued(chain[1]) && chain[1].checkIssued(leaf)) {
    return refuse('principal', 'the chain is in reverse order: it must start with the leaf certificate, followed by its issuers');
  }
  const expiresOn = new Date(leaf.validTo);
  if (Number.isNaN(expiresOn.getTime())) return refuse('principal', `the leaf certificate has an unreadable expiry date (${leaf.validTo})`);
  if (expiresOn.getTime() < now.getTime()) return refuse('principal', `the leaf certificate expired on ${expiresOn.toISOString()}`);

  const keyProblem = privateKeyProblem(privateKey, leaf);
  if (keyProblem) return refuse('privateKey', keyProblem);

  return {
    kind: 'parsed',
    principal,
    applicationPem: chain.map((c) => c.toString().trim()).join('\n'),
    expiresOn,
    fingerprint: createHash('sha256').update(leaf.raw).digest('hex'),
  };
}

/** Why a custom (OAUTH) principal string is unacceptable, or null: 1–255 printable characters, not all blank. */
export function customPrincipalProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'must be a string of 1 to 255 characters';
  // Counted in code points, as the database's varchar(255) counts them.
  const length = [...value].length;
  if (length > 255) return `must be at most 255 characters long; it is ${length}`;
  if (/\p{C}/u.test(value)) return 'must consist of printable characters only (no control characters)';
  if (value.trim() === '') return 'must not be blank';
  return null;
}

const refuse = (field: PrincipalField, message: string): PrincipalOutcome => ({ kind: 'refused', field, message });

/** The certificates of a PEM text in order, or why there are none. Text between the blocks is ignored, as openssl writes some. */
function readChain(pem: unknown): X509Certificate[] | string {
  if (typeof pem !== 'string' || pem.trim() === '') return 'must be a PEM certificate chain, leaf first; it is empty';
  const blocks = [...pem.matchAll(PEM_BLOCK)];
  if (blocks.length === 0) return 'is not PEM: expected one or more -----BEGIN CERTIFICATE----- blocks, leaf first';
  const foreign = blocks.find((b) => b[1] !== 'CERTIFICATE');
  if (foreign) {
    // A key pasted into the chain would otherwise be silently dropped; say where it belongs.
    const hint = foreign[1].includes('PRIVATE KEY') ? '; send the private key as privateKey' : '';
    return `may hold only CERTIFICATE blocks, found ${foreign[1]}${hint}`;
  }
  const chain: X509Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      chain.push(new X509Certificate(block[0]));
    } catch {
      return `certificate ${i + 1} of the chain cannot be parsed`;
    }
  }
  return chain;
}

/**
 * Node prints a subject one RDN per line in encoding order (least specific first), values already escaped as
 * RFC 4514 wants (`\,`, `\+`, `\"`, leading `\#`, trailing `\ `, control characters as hex), with the values of a
 * multi-valued RDN joined by " + ". Since a `+` inside a value is always escaped, " + " only ever separates.
 */
function rfc4514(subject: string): string {
  return subject
    .split('\n')
    .filter((line) => line !== '')
    .reverse()
    .map((rdn) => rdn.split(' + ').join('+'))
    .join(',');
}

function privateKeyProblem(privateKey: unknown, leaf: X509Certificate): string | null {
  if (privateKey === undefined || privateKey === null) return null;
  if (typeof privateKey !== 'string') return 'must be a PEM private key';
  if (privateKey.trim() === '') return null;
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKey);
  } catch {
    return 'cannot be parsed: it must be an unencrypted PEM private key (PKCS#8, PKCS#1 or SEC1)';
  }
  return leaf.checkPrivateKey(key) ? null : 'does not match the public key of the leaf certificate';
}
