import net from 'node:net';
import os from 'node:os';

/**
 * Which IP addresses a URL chosen by the outside world may reach: only public unicast ones.
 * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are judged by the
 * IPv4 address inside them, because that is where the packets end up (docs/decisions/0009).
 */

/** IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const REFUSED_IPV4_RANGES = [
  ['0.0.0.0', 8, 'this network, unspecified'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local, cloud metadata'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation TEST-NET-1'],
  ['192.88.99.0', 24, '6to4 relay anycast (deprecated)'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation TEST-NET-2'],
  ['203.0.113.0', 24, 'documentation TEST-NET-3'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, including the broadcast 255.255.255.255'],
] as const;

/**
 * IPv6 ranges refused outright. Only 2000::/3 is global unicast, so everything outside it is refused
 * as well, except the IPv4-carrying forms judged by their IPv4 address.
 */
const REFUSED_IPV6_RANGES = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'local-use NAT64 (RFC 8215)'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignments (benchmarking, ORCHID…), Teredo 2001::/32 aside'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
] as const;

const refusedV4 = new net.BlockList();
for (const [address, prefix] of REFUSED_IPV4_RANGES) refusedV4.addSubnet(address, prefix, 'ipv4');
const refusedV6 = new net.BlockList();
for (const [address, prefix] of REFUSED_IPV6_RANGES) refusedV6.addSubnet(address, prefix, 'ipv6');
const globalUnicastV6 = new net.BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

/** The 16 bytes of an IPv6 address (zone id ignored), or undefined when it is not one. */
function ipv6Bytes(text: string): Uint8Array | undefined {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!net.isIPv6(address)) return undefined;
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes the two hex groups it stands for.
  const groups = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_all, a: string, b: string, c: string, d: string) => `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const bytes = new Uint8Array(16);
  const [head, rest] = groups.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const words = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  words.forEach((word, index) => {
    const value = parseInt(word, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

const v4At = (bytes: Uint8Array, offset: number, mask = 0) => [0, 1, 2, 3].map((index) => (bytes[offset + index]! ^ mask) & 0xff).join('.');
const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((value, index) => bytes[index] === value);
const zeros = (count: number) => Array<number>(count).fill(0);

/**
 * The IPv4 addresses an IPv6 address carries, by the form that embeds them: IPv4-mapped ::ffff:a.b.c.d,
 * IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 2002:AABB:CCDD::,
 * Teredo 2001:0:SSSS:SSSS:…:~CCCC:~CCCC (server and client, the client's bits inverted). Empty for the rest.
 */
function embeddedIPv4(bytes: Uint8Array): string[] {
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return [v4At(bytes, 12)];
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return [v4At(bytes, 12)];
  if (startsWith(bytes, zeros(12))) return [v4At(bytes, 12)];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return [v4At(bytes, 12)];
  if (startsWith(bytes, [0x20, 0x02])) return [v4At(bytes, 2)];
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) return [v4At(bytes, 4), v4At(bytes, 12, 0xff)];
  return [];
}

const canonicalV6 = (bytes: Uint8Array) => Array.from({ length: 8 }, (_, index) => ((bytes[index * 2]! << 8) | bytes[index * 2 + 1]!).toString(16)).join(':');

/** This host's own interface addresses (IPv4 dotted, IPv6 as eight hex groups): a public one may still reach us. */
function ownInterfaceAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      const bytes = entry.family === 'IPv6' ? ipv6Bytes(entry.address) : undefined;
      own.add(bytes ? canonicalV6(bytes) : entry.address);
    }
  }
  return own;
}

function refusedIPv4(address: string, own: Set<string>) {
  return refusedV4.check(address, 'ipv4') || own.has(address);
}

/**
 * True when the address is not public unicast, is one of this host's own addresses, or carries such an
 * IPv4 address; anything that is not an IP address at all is refused too.
 */
export function isNonPublicAddress(address: string, own: Set<string> = ownInterfaceAddresses()): boolean {
  const literal = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(literal)) return refusedIPv4(literal, own);
  const bytes = ipv6Bytes(literal);
  if (!bytes) return true;
  const canonical = canonicalV6(bytes);
  if (own.has(canonical) || (refusedV6.check(canonical, 'ipv6') && !isTeredo(bytes))) return true;
  const carried = embeddedIPv4(bytes);
  if (carried.length > 0) return carried.some((v4) => refusedIPv4(v4, own));
  return !globalUnicastV6.check(canonical, 'ipv6');
}

function isTeredo(bytes: Uint8Array) {
  return startsWith(bytes, [0x20, 0x01, 0, 0]);
}
