import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Errors } from '../errors.ts';

/**
 * Which remote hosts http(s) sources may contact (SSRF guard). The check runs on the URL given
 * by the user and on every redirect hop.
 *
 * http(s) sources check again when they connect (node-http-get.ts: every address the connection's
 * own lookup returns goes through `addressAllowed`), so a DNS server that answers differently the
 * second time (DNS rebinding) is caught. S3 requests (fetch) are checked on the URL only.
 */
export interface NetworkPolicy {
  allowPrivateHosts: boolean;
  /** Lower-case host names exempt from the private-address check (not from the metadata block). */
  allowedHosts: readonly string[];
  resolveHost: (hostname: string) => Promise<string[]>;
  /** The connect-time resolver (tests: a DNS that answers differently); dns.lookup when absent. */
  connectLookup?: LookupFunction;
}

// node:net's BlockList does the CIDR matching; we only list the ranges.
const privateRanges = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598), includes Alibaba's metadata 100.100.100.200
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes the AWS/GCP/Azure metadata 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  privateRanges.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (ULA), includes AWS's fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
] as const) {
  privateRanges.addSubnet(net, bits, 'ipv6');
}

const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** The IPv4 address embedded in an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 IPv6 address. */
function embeddedIpv4(ip: string): string | undefined {
  const words = expandIpv6(ip);
  if (words === undefined) return undefined;
  const high = words.slice(0, 6);
  const mapped = high.slice(0, 5).every((w) => w === 0) && (high[5] === 0xffff || high[5] === 0);
  const nat64 = high[0] === 0x64 && high[1] === 0xff9b && high.slice(2).every((w) => w === 0);
  if (!mapped && !nat64) return undefined;
  if (high[5] === 0 && !nat64 && words[6] === 0 && words[7]! <= 1) return undefined; // :: and ::1 themselves
  return `${words[6]! >> 8}.${words[6]! & 255}.${words[7]! >> 8}.${words[7]! & 255}`;
}

/** Eight 16-bit words of an IPv6 address (accepts a dotted IPv4 tail), or undefined. */
function expandIpv6(ip: string): number[] | undefined {
  if (isIP(ip) !== 6) return undefined;
  let text = ip.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const h = head === '' ? [] : head.split(':');
  const r = rest === undefined || rest === '' ? [] : rest.split(':');
  const fill = rest === undefined ? 0 : 8 - h.length - r.length;
  const words = [...h, ...Array<string>(fill).fill('0'), ...r].map((w) => parseInt(w, 16));
  return words.length === 8 ? words : undefined;
}

/** True for cloud metadata endpoints (blocked always, even with allowPrivateHosts). */
export function isMetadataAddress(ip: string): boolean {
  const v4 = isIP(ip) === 6 ? embeddedIpv4(ip) : ip;
  if (v4 !== undefined && METADATA_ADDRESSES.has(v4)) return true;
  const words = expandIpv6(ip);
  return words !== undefined && words.map((w) => w.toString(16)).join(':') === 'fd00:ec2:0:0:0:0:0:254';
}

/** True for loopback, private, link-local, unspecified, CGNAT, multicast and reserved addresses. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return privateRanges.check(ip, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(ip);
  if (v4 !== undefined) return privateRanges.check(v4, 'ipv4');
  const zone = ip.indexOf('%');
  return privateRanges.check(zone >= 0 ? ip.slice(0, zone) : ip, 'ipv6');
}

export async function defaultResolveHost(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/** Host without IPv6 brackets, lower case, no trailing dot. */
function bareHost(url: URL): string {
  let h = url.hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/**
 * The connect-time check of one resolved address of `hostname` (bare, as net.connect's lookup
 * gets it): metadata endpoints never, private addresses only when allowed.
 */
export function addressAllowed(hostname: string, address: string, policy: NetworkPolicy): boolean {
  if (isMetadataAddress(address)) return false;
  let host = hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (policy.allowPrivateHosts || policy.allowedHosts.includes(host)) return true;
  return !isPrivateAddress(address);
}

/**
 * Throws SourceForbidden when `url` may not be contacted: scheme other than http/https, a
 * metadata endpoint, or (unless allowed) a host that is or resolves to a private address.
 */
export async function assertUrlAllowed(url: URL, policy: NetworkPolicy): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw Errors.sourceForbidden(`Unsupported URL scheme "${url.protocol}"`);
  }
  const host = bareHost(url);
  const forbidden = () => Errors.sourceForbidden(`Access to host ${url.hostname} is not allowed`);
  if (METADATA_NAMES.has(host)) throw forbidden();
  const literal = isIP(host) !== 0;
  if (literal && isMetadataAddress(host)) throw forbidden();
  if (policy.allowPrivateHosts || policy.allowedHosts.includes(host)) return;
  if (literal) {
    if (isPrivateAddress(host)) throw forbidden();
    return;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) throw forbidden();
  let addresses: string[];
  try {
    addresses = await policy.resolveHost(host);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw Errors.upstream(`Could not resolve host ${url.hostname}`, { cause: err });
    throw Errors.upstream(`DNS lookup of ${url.hostname} failed`, { cause: err });
  }
  if (addresses.length === 0) throw Errors.upstream(`Could not resolve host ${url.hostname}`);
  for (const a of addresses) {
    if (isMetadataAddress(a) || isPrivateAddress(a)) throw forbidden();
  }
}
