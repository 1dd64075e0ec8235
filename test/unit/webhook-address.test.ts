/** Where a webhook may be sent (core/rules/webhook-address.ts): every refused range at its edges, and the URL checks. */
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isForbiddenAddress, MAX_WEBHOOK_URL_LENGTH } from '../../core/rules/webhook-address';

const LOOPBACK = 'a loopback address';
const PRIVATE = 'a private address';
const LINK_LOCAL = 'a link-local address';
const METADATA = 'a cloud metadata address';
const UNSPECIFIED = 'an unspecified address';
const SHARED = 'a shared (carrier-grade NAT) address';
const MULTICAST = 'a multicast address';
const RESERVED = 'a reserved address';
const BENCHMARKING = 'a benchmarking address';
const DOCUMENTATION = 'a documentation address';

describe('isForbiddenAddress: IPv4', () => {
  it.each([
    // Each range: the address below it, its first and last address, the address above it.
    ['0.0.0.0', UNSPECIFIED], ['0.255.255.255', UNSPECIFIED], ['1.0.0.0', null],
    ['9.255.255.255', null], ['10.0.0.0', PRIVATE], ['10.255.255.255', PRIVATE], ['11.0.0.0', null],
    ['100.63.255.255', null], ['100.64.0.0', SHARED], ['100.127.255.255', SHARED], ['100.128.0.0', null],
    ['126.255.255.255', null], ['127.0.0.0', LOOPBACK], ['127.0.0.1', LOOPBACK], ['127.255.255.255', LOOPBACK], ['128.0.0.0', null],
    ['169.253.255.255', null], ['169.254.0.0', LINK_LOCAL], ['169.254.255.255', LINK_LOCAL], ['169.255.0.0', null],
    ['169.254.169.254', METADATA], ['169.254.169.253', LINK_LOCAL], ['169.254.169.255', LINK_LOCAL], ['169.254.170.2', METADATA],
    ['100.100.100.200', METADATA],
    ['172.15.255.255', null], ['172.16.0.0', PRIVATE], ['172.31.255.255', PRIVATE], ['172.32.0.0', null],
    ['191.255.255.255', null], ['192.0.0.0', RESERVED], ['192.0.0.255', RESERVED], ['192.0.1.0', null],
    ['192.0.1.255', null], ['192.0.2.0', DOCUMENTATION], ['192.0.2.255', DOCUMENTATION], ['192.0.3.0', null],
    ['192.88.98.255', null], ['192.88.99.0', RESERVED], ['192.88.99.255', RESERVED], ['192.88.100.0', null],
    ['192.167.255.255', null], ['192.168.0.0', PRIVATE], ['192.168.255.255', PRIVATE], ['192.169.0.0', null],
    ['198.17.255.255', null], ['198.18.0.0', BENCHMARKING], ['198.19.255.255', BENCHMARKING], ['198.20.0.0', null],
    ['198.51.99.255', null], ['198.51.100.0', DOCUMENTATION], ['198.51.100.255', DOCUMENTATION], ['198.51.101.0', null],
    ['203.0.112.255', null], ['203.0.113.0', DOCUMENTATION], ['203.0.113.255', DOCUMENTATION], ['203.0.114.0', null],
    ['223.255.255.255', null], ['224.0.0.0', MULTICAST], ['239.255.255.255', MULTICAST],
    ['240.0.0.0', RESERVED], ['255.255.255.254', RESERVED], ['255.255.255.255', 'the broadcast address'],
    ['8.8.8.8', null], ['1.1.1.1', null], ['93.184.215.14', null],
  ])('%s → %s', (ip, why) => {
    expect(isForbiddenAddress(ip)).toBe(why);
  });
});

describe('isForbiddenAddress: IPv6', () => {
  it.each([
    ['::', UNSPECIFIED], ['0:0:0:0:0:0:0:0', UNSPECIFIED], ['::1', LOOPBACK], ['0:0:0:0:0:0:0:1', LOOPBACK],
    ['fc00::', PRIVATE], ['fd12:3456::1', PRIVATE], ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', PRIVATE],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', RESERVED], ['fe00::', RESERVED],
    ['fd00:ec2::254', METADATA], ['fd00:ec2::253', PRIVATE], ['FD00:EC2:0:0:0:0:0:254', METADATA],
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', RESERVED], ['fe80::', LINK_LOCAL], ['fe80::1', LINK_LOCAL], ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', LINK_LOCAL],
    ['fe80::1%eth0', LINK_LOCAL], ['fec0::1', PRIVATE],
    ['ff00::', MULTICAST], ['ff02::1', MULTICAST], ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', MULTICAST],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', null], ['2001:db8::', DOCUMENTATION], ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', DOCUMENTATION], ['2001:db9::', null],
    ['3fff::1', DOCUMENTATION], ['2001:2::1', BENCHMARKING], ['2001::1', RESERVED], ['2001:1ff:ffff::', RESERVED], ['2001:200::', null],
    ['64:ff9b:1::1', PRIVATE], ['100::1', RESERVED], ['1::', RESERVED], ['4000::1', RESERVED],
    ['2000::', null], ['3fff:fff:ffff::', DOCUMENTATION], ['3fff:1000::', null], ['2606:4700:4700::1111', null], ['2a00:1450:4001:80b::200e', null],
  ])('%s → %s', (ip, why) => {
    expect(isForbiddenAddress(ip)).toBe(why);
  });

  it.each([
    // IPv4-mapped, dotted and hex.
    ['::ffff:127.0.0.1', LOOPBACK], ['::ffff:7f00:1', LOOPBACK], ['0:0:0:0:0:ffff:7f00:0001', LOOPBACK], ['::FFFF:7F00:1', LOOPBACK],
    ['::ffff:10.1.2.3', PRIVATE], ['::ffff:a01:203', PRIVATE], ['::ffff:169.254.169.254', METADATA], ['::ffff:a9fe:a9fe', METADATA],
    ['::ffff:0.0.0.0', UNSPECIFIED], ['::ffff:172.16.0.1', PRIVATE], ['::ffff:8.8.8.8', null], ['::ffff:808:808', null],
    // IPv4-compatible (deprecated).
    ['::127.0.0.1', LOOPBACK], ['::7f00:1', LOOPBACK], ['::192.168.1.1', PRIVATE], ['::0.0.0.2', UNSPECIFIED], ['::8.8.8.8', null],
    // NAT64: the gateway connects to the embedded address.
    ['64:ff9b::127.0.0.1', LOOPBACK], ['64:ff9b::7f00:1', LOOPBACK], ['64:ff9b::a9fe:a9fe', METADATA], ['64:ff9b::8.8.8.8', null],
    // 6to4: the embedded address sits right after the 2002 prefix.
    ['2002:7f00:1::', LOOPBACK], ['2002:c0a8:101::1', PRIVATE], ['2002:a9fe:a9fe::', METADATA], ['2002:808:808::1', null],
  ])('%s is judged by the IPv4 address it carries → %s', (ip, why) => {
    expect(isForbiddenAddress(ip)).toBe(why);
  });

  it('refuses text that is not an IP literal: the caller checks addresses, never names', () => {
    expect(isForbiddenAddress('localhost')).toBe('not an IP address');
    expect(isForbiddenAddress('127.1')).toBe('not an IP address');
  });
});

const STRICT = { allowHttp: false, allowPrivate: false };
const HTTP = { allowHttp: true, allowPrivate: false };
const OPEN = { allowHttp: true, allowPrivate: true };

describe('checkWebhookUrl', () => {
  it.each([
    'https://hooks.example.com/notify',
    'https://hooks.example.com:8443/a/b?c=d&e=f',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
    'HTTPS://Hooks.Example.COM/x',
    'https://xn--bcher-kva.example/hook',
    'https://bücher.example/hook',
    'https://internal.example.com/',
    'https://localhost.example.com/',
    'https://example.internalx/',
  ])('accepts %s', (url) => {
    expect(checkWebhookUrl(url, STRICT)).toBeNull();
  });

  it.each([
    ['not a url', 'must not contain spaces or control characters'],
    ['hooks.example.com/notify', 'must be an absolute URL'],
    ['/notify', 'must be an absolute URL'],
    ['//hooks.example.com/notify', 'must be an absolute URL'],
    ['https://', 'must be an absolute URL'],
    ['https://exa mple.com/', 'must not contain spaces or control characters'],
    [' https://example.com/', 'must not contain spaces or control characters'],
    ['https://example.com/\n', 'must not contain spaces or control characters'],
    ['https://exa\tmple.com/', 'must not contain spaces or control characters'],
    ['http://hooks.example.com/', 'must use https'],
    ['ftp://hooks.example.com/', 'must use https'],
    ['file:///etc/passwd', 'must use https'],
    ['javascript:alert(1)', 'must use https'],
    ['ws://hooks.example.com/', 'must use https'],
    ['https://user:pw@hooks.example.com/', 'must not contain a user name or password'],
    ['https://user@hooks.example.com/', 'must not contain a user name or password'],
    ['https://:pw@hooks.example.com/', 'must not contain a user name or password'],
    ['https://hooks.example.com/#top', 'must not have a fragment'],
    ['https://hooks.example.com/#', 'must not have a fragment'],
    ['https://127.0.0.1/', 'points to a loopback address'],
    ['https://[::1]/', 'points to a loopback address'],
    ['https://10.0.0.1/', 'points to a private address'],
    ['https://[fd00::1]/', 'points to a private address'],
    ['https://169.254.169.254/latest/meta-data/', 'points to a cloud metadata address'],
    ['https://[fd00:ec2::254]/', 'points to a cloud metadata address'],
    ['https://[fe80::1]/', 'points to a link-local address'],
    ['https://0.0.0.0/', 'points to an unspecified address'],
    ['https://[::]/', 'points to an unspecified address'],
    ['https://100.64.0.1/', 'points to a shared (carrier-grade NAT) address'],
    ['https://224.0.0.1/', 'points to a multicast address'],
    ['https://255.255.255.255/', 'points to the broadcast address'],
    ['https://192.0.2.1/', 'points to a documentation address'],
    ['https://[2001:db8::1]/', 'points to a documentation address'],
    ['https://198.18.0.1/', 'points to a benchmarking address'],
    // Forms the URL parser reads as the addresses they mean.
    ['https://2130706433/', 'points to a loopback address'],
    ['https://0x7f.1/', 'points to a loopback address'],
    ['https://0x7f000001/', 'points to a loopback address'],
    ['https://0177.0.0.1/', 'points to a loopback address'],
    ['https://127.1/', 'points to a loopback address'],
    ['https://%31%32%37.0.0.1/', 'points to a loopback address'],
    ['https://127.0.0.1./', 'points to a loopback address'],
    ['https://①②⑦.0.0.1/', 'points to a loopback address'],
    ['https://127。0。0。1/', 'points to a loopback address'],
    ['https://0/', 'points to an unspecified address'],
    ['https://012.1.2.3/', 'points to a private address'],
    ['https://3232235777/', 'points to a private address'],
    ['https://[::ffff:127.0.0.1]/', 'points to a loopback address'],
    ['https://[::ffff:7f00:1]/', 'points to a loopback address'],
    ['https://[::ffff:a9fe:a9fe]/', 'points to a cloud metadata address'],
    ['https://[::127.0.0.1]/', 'points to a loopback address'],
    ['https://[64:ff9b::10.0.0.1]/', 'points to a private address'],
    ['https://[2002:7f00:1::]/', 'points to a loopback address'],
    ['https://[0:0:0:0:0:0:0:1]/', 'points to a loopback address'],
    ['https://localhost/', 'names the local host'],
    ['https://LOCALHOST/', 'names the local host'],
    ['https://localhost./', 'names the local host'],
    ['https://localhost:8443/', 'names the local host'],
    ['https://api.localhost/', 'names the local host'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'names an internal host'],
    ['https://db.internal./', 'names an internal host'],
    ['https://internal/', 'names an internal host'],
  ])('refuses %s: %s', (url, why) => {
    expect(checkWebhookUrl(url, STRICT)).toBe(why);
  });

  it(`accepts ${MAX_WEBHOOK_URL_LENGTH} characters and refuses one more`, () => {
    const base = 'https://hooks.example.com/';
    expect(checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length), STRICT)).toBeNull();
    expect(checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length + 1), STRICT)).toBe(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long`);
  });

  it.each([
    ['http://hooks.example.com/', STRICT, 'must use https'],
    ['http://hooks.example.com/', HTTP, null],
    ['ftp://hooks.example.com/', HTTP, 'must use https or http'],
    ['http://127.0.0.1:8080/', HTTP, 'points to a loopback address'],
    ['http://127.0.0.1:8080/', OPEN, null],
    ['https://127.0.0.1/', { allowHttp: false, allowPrivate: true }, null],
    ['http://127.0.0.1/', { allowHttp: false, allowPrivate: true }, 'must use https'],
    ['https://[::1]:8443/', OPEN, null],
    ['https://169.254.169.254/', OPEN, null],
    ['https://localhost/', OPEN, null],
    ['https://metadata.google.internal/', OPEN, null],
    // The other rules hold whatever the policy allows.
    ['http://user:pw@127.0.0.1/', OPEN, 'must not contain a user name or password'],
    ['http://127.0.0.1/#x', OPEN, 'must not have a fragment'],
    ['file:///etc/passwd', OPEN, 'must use https or http'],
  ])('%s with %o → %s', (url, policy, why) => {
    expect(checkWebhookUrl(url, policy)).toBe(why);
  });
});
