/**
 * Where a webhook may be sent (issue 44): the IP addresses that are never called (loopback, private, link-local,
 * cloud metadata, and every other range that is not public unicast), and the checks of a URL an admin registers.
 * Pure: nothing here resolves a name. The transport (providers/webhook.ts) applies the same address rules to what a
 * host name resolves to at the moment it connects, so a name cannot point elsewhere between the check and the call.
 */
import { isIP } from 'node:net';

export interface WebhookUrlPolicy {
  /** Plain http is accepted (a test receiver, a development setup). */
  allowHttp: boolean;
  /** Loopback, private and local names are accepted (WEBHOOK_ALLOW_PRIVATE: tests, a receiver inside the network). */
  allowPrivate: boolean;
}

export const MAX_WEBHOOK_URL_LENGTH = 2000;

/**
 * Why a range is refused, or `embedded`: an IPv6 form carrying an IPv4 address at that bit offset (from the most
 * significant bit), judged by the address it carries.
 */
type Verdict = string | { embedded: number };
interface Range<V> { net: bigint; prefix: number; verdict: V }

const METADATA = 'a cloud metadata address';
const PRIVATE = 'a private address';
const RESERVED = 'a reserved address';
const DOCUMENTATION = 'a documentation address';

/** First match wins: a single address named more precisely sits before the range holding it. */
const V4: Array<[string, string]> = [
  ['169.254.169.254/32', METADATA],
  ['169.254.170.2/32', METADATA], // AWS ECS task credentials
  ['100.100.100.200/32', METADATA], // Alibaba Cloud
  ['0.0.0.0/8', 'an unspecified address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['10.0.0.0/8', PRIVATE],
  ['172.16.0.0/12', PRIVATE],
  ['192.168.0.0/16', PRIVATE],
  ['169.254.0.0/16', 'a link-local address'],
  ['100.64.0.0/10', 'a shared (carrier-grade NAT) address'],
  ['192.0.0.0/24', RESERVED], // IETF protocol assignments
  ['192.88.99.0/24', RESERVED], // the retired 6to4 relay anycast
  ['192.0.2.0/24', DOCUMENTATION],
  ['198.51.100.0/24', DOCUMENTATION],
  ['203.0.113.0/24', DOCUMENTATION],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['255.255.255.255/32', 'the broadcast address'],
  ['240.0.0.0/4', RESERVED],
];

const V6: Array<[string, Verdict]> = [
  ['fd00:ec2::254/128', METADATA], // AWS, inside the unique-local range below
  ['::/128', 'an unspecified address'],
  ['::1/128', 'a loopback address'],
  ['::ffff:0:0/96', { embedded: 96 }], // IPv4-mapped
  ['::/96', { embedded: 96 }], // IPv4-compatible (deprecated, still routed by some stacks)
  ['64:ff9b::/96', { embedded: 96 }], // NAT64: the gateway connects to the embedded address
  ['64:ff9b:1::/48', PRIVATE], // local-use NAT64
  ['2002::/16', { embedded: 16 }], // 6to4
  ['2001:2::/48', 'a benchmarking address'],
  ['2001::/23', RESERVED], // IETF protocol assignments, Teredo among them
  ['2001:db8::/32', DOCUMENTATION],
  ['3fff::/20', DOCUMENTATION],
  ['fc00::/7', PRIVATE],
  ['fec0::/10', PRIVATE], // site-local (deprecated)
  ['fe80::/10', 'a link-local address'],
  ['ff00::/8', 'a multicast address'],
];

/** Everything outside global unicast (2000::/3) is unassigned or special. */
const GLOBAL_UNICAST = range('2000::/3', '');

const V4_RANGES = V4.map(([cidr, why]) => range(cidr, why));
const V6_RANGES = V6.map(([cidr, why]) => range(cidr, why));

function range<V>(cidr: string, verdict: V): Range<V> {
  const [ip, prefix] = cidr.split('/');
  return { net: toBits(ip), prefix: Number(prefix), verdict };
}

function inRange(bits: bigint, width: number, r: Range<unknown>): boolean {
  const shift = BigInt(width - r.prefix);
  return bits >> shift === r.net >> shift;
}

function v4Bits(ip: string): bigint {
  return ip.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);
}

/** The 128 bits of a valid IPv6 literal: `::` expanded, a trailing dotted IPv4 part read as two groups. */
function v6Bits(ip: string): bigint {
  let text = ip.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Bits(dotted[1]);
    text = text.slice(0, dotted.index) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const known = [...groups(head), ...groups(tail)].length;
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(8 - known).fill('0'), ...groups(tail)];
  return all.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function toBits(ip: string): bigint {
  return isIP(ip) === 4 ? v4Bits(ip) : v6Bits(ip);
}

function judgeV4(bits: bigint): string | null {
  return V4_RANGES.find((r) => inRange(bits, 32, r))?.verdict ?? null;
}

/**
 * Why the IP literal `ip` (IPv4 or IPv6) may not be called — `a loopback address`, `a private address`, … — or null
 * when it is public unicast. An IPv6 form that carries an IPv4 address is judged by that address. Text that is not an
 * IP literal is refused too: the caller checks addresses, never names.
 */
export function isForbiddenAddress(ip: string): string | null {
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 4) return judgeV4(v4Bits(ip));
  if (family !== 6) return 'not an IP address';
  const bits = v6Bits(ip);
  const verdict = V6_RANGES.find((r) => inRange(bits, 128, r))?.verdict;
  if (typeof verdict === 'string') return verdict;
  if (verdict) return judgeV4((bits >> BigInt(128 - verdict.embedded - 32)) & 0xffffffffn);
  return inRange(bits, 128, GLOBAL_UNICAST) ? null : RESERVED;
}

/** Host names that only ever mean this machine or a private network. */
function localName(host: string): string | null {
  const name = host.replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'names the local host';
  if (name === 'internal' || name.endsWith('.internal')) return 'names an internal host';
  return null;
}

/**
 * Why `url` cannot be registered as a webhook, as a short sentence the caller prefixes with the field's name
 * (`must use https`, `points to a loopback address`), or null when it can. The URL is read as the transport reads it
 * (WHATWG), so `http://2130706433/`, `http://0x7f.1/` and `http://[::ffff:127.0.0.1]/` are the addresses they mean.
 */
export function checkWebhookUrl(url: string, policy: WebhookUrlPolicy): string | null {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long`;
  // The parser drops or encodes these silently: what is stored would not be what is called.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(url)) return 'must not contain spaces or control characters';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && policy.allowHttp)) {
    return policy.allowHttp ? 'must use https or http' : 'must use https';
  }
  if (parsed.username !== '' || parsed.password !== '') return 'must not contain a user name or password';
  // An empty fragment (`…#`) leaves `hash` empty; the serialised form still shows it.
  if (parsed.href.includes('#')) return 'must not have a fragment';
  if (parsed.hostname === '') return 'must name a host';
  if (policy.allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const why = isForbiddenAddress(host);
    return why ? `points to ${why}` : null;
  }
  return localName(host);
}
