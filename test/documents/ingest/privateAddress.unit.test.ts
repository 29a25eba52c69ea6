import assert from 'node:assert/strict';
import { isPrivateAddress } from '../../../src/documents/ingest/privateAddress.js';

describe('isPrivateAddress', () => {
  const refused = [
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12 low end'],
    ['172.31.255.255', 'private 172.16/12 high end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback anywhere in 127/8'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'this network'],
    ['100.64.0.1', 'CGNAT low end'],
    ['100.127.255.254', 'CGNAT high end'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with zone'],
    ['febf:ffff::1', 'IPv6 link-local high end'],
    ['fec0::1', 'IPv6 deprecated site-local'],
    ['fc00::1', 'IPv6 unique-local fc'],
    ['fd12:3456:789a::1', 'IPv6 unique-local fd'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::FFFF:10.0.0.1', 'IPv4-mapped private, upper case'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'IPv4-mapped private, written out'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['2002:c0a8:0101::1', '6to4 of a private address'],
    ['192.0.2.10', 'IPv4 documentation range'],
    ['0x7f.0.0.1', 'legacy hex IPv4 form'],
    ['2001:db8::1', 'IPv6 documentation range'],
    ['2001:0::1', 'Teredo'],
    ['not-an-ip', 'not an address at all'],
  ] as const;
  for (const [ip, what] of refused) {
    it(`counts ${ip} as private (${what})`, () => assert.equal(isPrivateAddress(ip), true));
  }

  const allowed = [
    ['8.8.8.8', 'public IPv4'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.0', 'just above 172.16/12'],
    ['100.63.255.255', 'just below CGNAT'],
    ['100.128.0.0', 'just above CGNAT'],
    ['11.0.0.1', 'just above 10/8'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
    ['64:ff9b::808:808', 'NAT64 of a public address'],
  ] as const;
  for (const [ip, what] of allowed) {
    it(`counts ${ip} as public (${what})`, () => assert.equal(isPrivateAddress(ip), false));
  }
});
