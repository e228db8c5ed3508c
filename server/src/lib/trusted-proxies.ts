import { BlockList, isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { peerAddress } from './client-ip';

declare module 'hono' {
  interface ContextVariableMap {
    /** The client's address: the TCP peer, or what a trusted proxy says the client was (clientAddress()). */
    clientAddress: string;
  }
}

/**
 * TRUSTED_PROXIES: the load balancers in front of the nodes (addresses or CIDR ranges). Behind nginx every
 * request's TCP peer is the proxy, so without this every per-IP limit would count all students as one. Only
 * a request whose peer is in this list has its `X-Forwarded-For` read; anyone else's header is ignored, as a
 * client-controlled header must be.
 */
export function parseTrustedProxies(value: string | undefined): BlockList | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (
      !family ||
      extra !== undefined ||
      (prefix !== undefined && (!/^\d{1,3}$/.test(bits ?? '') || prefix > max))
    )
      throw new Error(`TRUSTED_PROXIES: '${entry}' is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (!family) return false;
  // An IPv4 client reaching a dual-stack listener shows up as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return list.check(mapped[1]!, 'ipv4');
  return list.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address behind trusted proxies: X-Forwarded-For read from the right (each proxy appends the
 * address it saw), skipping proxies of ours, and the first other address is the client. Entries to its left
 * were written by the client itself and are never believed. A malformed entry ends the walk at the last
 * trusted hop (that proxy is then the client, which only ever shares a budget, never escapes one).
 */
export function resolveClientAddress(
  peer: string,
  forwardedFor: string | undefined,
  list: BlockList,
): string {
  if (!forwardedFor || !isTrusted(list, peer)) return peer;
  const hops = forwardedFor.split(',').map((s) => s.trim());
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop.replace(/%.*$/, ''))) return client;
    client = hop;
    if (!isTrusted(list, hop)) return hop;
  }
  return client;
}

/** Sets `clientAddress` for every request (clientIp() reads it); without TRUSTED_PROXIES it is the peer. */
export function clientAddress(list: BlockList | undefined): MiddlewareHandler {
  return async (c: Context, next) => {
    const peer = peerAddress(c);
    c.set('clientAddress', list ? resolveClientAddress(peer, c.req.header('x-forwarded-for'), list) : peer);
    await next();
  };
}
