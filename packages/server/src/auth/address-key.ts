import { isIPv6 } from 'node:net';

/** The 16-bit groups of an IPv6 address, `::` expanded (an embedded IPv4 tail counts as two). */
function ipv6Groups(ip: string): string[] {
  const parts = (part: string) =>
    part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
  const [head = '', tail] = ip.split('::');
  if (tail === undefined) return parts(head);
  const [before, after] = [parts(head), parts(tail)];
  return [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
}

/**
 * The key per-address limits count a client under: an IPv4 address as it is (also when IPv6-mapped),
 * an IPv6 address by its /64 prefix. One subscriber usually gets a whole /64 and may use any
 * address in it, so counting single IPv6 addresses would let them escape every per-address limit.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const address = ip.split('%')[0]!;
  if (!isIPv6(address)) return ip;
  const prefix = ipv6Groups(address.toLowerCase())
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
