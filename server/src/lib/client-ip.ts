import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The peer address of the TCP connection. Forwarded headers are ignored on purpose: without a trusted
 * proxy in front they are client-controlled and would let anyone dodge the rate limits.
 */
export function clientIp(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
