// Decides whether an IP address is one a URL fetch must never reach (private, loopback,
// link-local, CGNAT...), so a caller cannot aim the server at its own network (SSRF).
import net from 'node:net';

/** IPv4 ranges that are not public unicast: [network, prefix length]. */
const IPV4_BLOCKED: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

/** IPv6 ranges that are not public unicast, as [first groups, prefix length]. */
const IPV6_BLOCKED: readonly [number[], number][] = [
  [[0xfc00], 7], // unique-local
  [[0xfe80], 10], // link-local
  [[0xfec0], 10], // deprecated site-local
  [[0xff00], 8], // multicast
  [[0x2001, 0x0db8], 32], // documentation
  [[0x0100, 0, 0, 0], 64], // discard-only
];

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function ipv4Blocked(value: number): boolean {
  return IPV4_BLOCKED.some(([network, bits]) => {
    const size = 2 ** (32 - bits);
    return Math.floor(value / size) === Math.floor(ipv4ToInt(network) / size);
  });
}

/** Parses an IPv6 address (zone and embedded dotted quad allowed) into eight 16-bit groups. */
export function parseIpv6(ip: string): number[] | null {
  const bare = ip.split('%')[0] ?? '';
  if (net.isIPv6(bare) === false) return null;
  let text = bare.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const v4 = ipv4ToInt(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  return groups.length === 8 ? groups.map((g) => parseInt(g, 16)) : null;
}

function prefixMatches(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i += 1, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(groups: number[]): number | null {
  const low = (groups[6] ?? 0) * 65536 + (groups[7] ?? 0);
  if (prefixMatches(groups, [0, 0, 0, 0, 0, 0xffff], 96)) return low; // ::ffff:a.b.c.d
  if (prefixMatches(groups, [0, 0, 0, 0, 0, 0], 96)) return low; // ::a.b.c.d, ::1 and ::
  if (prefixMatches(groups, [0, 0, 0, 0, 0xffff, 0], 96)) return low; // ::ffff:0:a.b.c.d (SIIT)
  if (prefixMatches(groups, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return low; // NAT64
  if (prefixMatches(groups, [0x2002], 16)) return (groups[1] ?? 0) * 65536 + (groups[2] ?? 0); // 6to4
  return null;
}

/**
 * True when the address is not public unicast: private, loopback, link-local, unique-local,
 * CGNAT, "this network", multicast or reserved, including IPv4 written inside IPv6.
 * Anything that is not a valid IP address counts as private: refusing is the safe answer.
 */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return ipv4Blocked(ipv4ToInt(ip));
  const groups = parseIpv6(ip);
  if (groups === null) return true;
  const v4 = embeddedIpv4(groups);
  if (v4 !== null) return ipv4Blocked(v4);
  return IPV6_BLOCKED.some(([prefix, bits]) => prefixMatches(groups, prefix, bits));
}
