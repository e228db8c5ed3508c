import type { Context } from 'hono';
import { isIPv4, isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The peer address of the TCP connection, as the socket reports it. Forwarded headers are ignored on
 * purpose: without a trusted proxy in front they are client-controlled and would let anyone dodge the rate
 * limits or pass for a local client.
 */
export function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The key every per-client rate limit counts the request's client by: `clientKey` of the client's address,
 * which is the TCP peer unless a proxy listed in TRUSTED_PROXIES forwarded the request (trusted-proxies.ts).
 */
export function clientIp(c: Context): string {
  return clientKey((c.get('clientAddress') as string | undefined) ?? peerAddress(c));
}

/**
 * One key per client: an IPv4 address as it is (an IPv4-mapped IPv6 one, `::ffff:a.b.c.d`, as that IPv4
 * address), an IPv6 address by its /64. A single subscriber usually gets a whole /64 (often a /56 or more),
 * so keying by the full address would give one attacker 2^64 fresh budgets for every IP limit.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names the interface, not the client
  if (isIPv4(bare) || !isIPv6(bare)) return bare;
  const groups = ipv6Groups(bare);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address ('::' expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
