import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges that are not public unicast (IANA special-purpose registry, "globally reachable:
 * false", plus multicast and the reserved class E).
 */
const NOT_PUBLIC_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", incl. the unspecified address
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
];

/** Ranges inside 2000::/3 (global unicast) that are nevertheless not public unicast. */
const NOT_PUBLIC_V6: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments, incl. Teredo and ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: reaches an IPv4 address through a relay
  ['3fff::', 20], // documentation
];

const notPublicV4 = new BlockList();
for (const [network, prefix] of NOT_PUBLIC_V4) notPublicV4.addSubnet(network, prefix, 'ipv4');
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');
const notPublicV6 = new BlockList();
for (const [network, prefix] of NOT_PUBLIC_V6) notPublicV6.addSubnet(network, prefix, 'ipv6');

/**
 * An address the server may connect to on a stranger's say-so: public unicast, IPv4 or IPv6.
 * Loopback, private, link-local, CGNAT, unique-local, multicast, unspecified, documentation and
 * other reserved ranges are not; an IPv6 address carrying an IPv4 one (IPv4-mapped
 * `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`) is judged by the IPv4 address it reaches.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublicV4.check(address, 'ipv4');
  // A zone index (`fe80::1%eth0`) only ever goes with link-local addresses.
  if (family !== 6 || address.includes('%')) return false;
  const embedded = embeddedIpv4(ipv6Bytes(address));
  if (embedded !== undefined) return isPublicAddress(embedded);
  return globalUnicastV6.check(address, 'ipv6') && !notPublicV6.check(address, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:0:0/96`) or NAT64 (`64:ff9b::/96`) address. */
function embeddedIpv4(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, 12);
  const mapped = head.every((b, i) => (i < 10 ? b === 0 : b === 0xff));
  const nat64 =
    [0x00, 0x64, 0xff, 0x9b].every((b, i) => head[i] === b) && head.subarray(4).every((b) => b === 0);
  return mapped || nat64 ? bytes.subarray(12).join('.') : undefined;
}

/** The 16 bytes of a valid IPv6 address (as `isIP` accepts it: `::` shorthand, dotted IPv4 tail). */
function ipv6Bytes(address: string): Uint8Array {
  const [head = '', tail] = address.split('::');
  const groups = (part: string | undefined): number[] =>
    !part
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const start = groups(head);
  const end = groups(tail);
  const words = [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 0xff;
  });
  return bytes;
}
