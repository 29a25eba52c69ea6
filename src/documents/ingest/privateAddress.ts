// Decides whether an IP address is one a URL fetch must never reach (private, loopback, link-local,
// CGNAT, reserved...), so a caller cannot aim the server at its own network (SSRF). The ranges are
// ipaddr.js's special-purpose registries: only its `unicast` (public) range is allowed. The DNS
// pinning that makes this check hold (connect only to the address that was checked) is in target.ts.
import ipaddr from 'ipaddr.js';

const PUBLIC = 'unicast';

function publicIpv4(address: ipaddr.IPv4): boolean {
  return address.range() === PUBLIC;
}

function ipv4FromBytes(bytes: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes);
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, SIIT, NAT64, 6to4), if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === 'ipv4Mapped') return address.toIPv4Address();
  if (range === 'rfc6145' || (range === 'rfc6052' && address.match(ipaddr.IPv6.parse('64:ff9b::'), 96))) {
    return ipv4FromBytes(bytes.slice(12));
  }
  if (range === '6to4') return ipv4FromBytes(bytes.slice(2, 6));
  // IPv4-compatible ::a.b.c.d (deprecated, but some stacks still route it); :: and ::1 are caught here too.
  if (address.match(ipaddr.IPv6.parse('::'), 96)) return ipv4FromBytes(bytes.slice(12));
  return null;
}

/**
 * True when the address is not public unicast: private, loopback, link-local, unique-local, CGNAT,
 * "this network", multicast, documentation or otherwise reserved, including IPv4 written inside IPv6.
 * Anything that is not a valid IP address counts as private: refusing is the safe answer.
 */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.split('%')[0] ?? '';
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return !publicIpv4(ipaddr.IPv4.parse(bare));
  if (!ipaddr.IPv6.isValid(bare)) return true;
  const address = ipaddr.IPv6.parse(bare);
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return !publicIpv4(v4);
  return address.range() !== PUBLIC;
}
