import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** mulberry32: a tiny seeded PRNG, so a failing run can be replayed with the printed seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FlakyProxyOptions {
  targetPort: number;
  targetHost?: string;
  seed: number;
  /** Each connection is cut this long after it was accepted (uniform in [minMs, maxMs]). */
  minMs?: number;
  maxMs?: number;
}

export interface FlakyProxy {
  port: number;
  seed: number;
  /** Connections accepted and connections cut by the proxy (not those that ended on their own). */
  readonly stats: { connections: number; cuts: number };
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the server that pipes both ways and destroys both sockets at a random moment
 * 0.2–2 s after each connection opens: the campus Wi-Fi dropping mid-frame, as often as it can.
 */
export async function startFlakyProxy(options: FlakyProxyOptions): Promise<FlakyProxy> {
  const { targetPort, targetHost = '127.0.0.1', seed, minMs = 200, maxMs = 2000 } = options;
  const random = seededRandom(seed);
  const stats = { connections: 0, cuts: 0 };
  const open = new Set<net.Socket>();

  const server = net.createServer((client) => {
    stats.connections += 1;
    const upstream = net.connect(targetPort, targetHost);
    open.add(client);
    open.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    const timer = setTimeout(
      () => {
        if (ended) return;
        stats.cuts += 1;
        end();
      },
      minMs + random() * (maxMs - minMs),
    );
    client.pipe(upstream);
    upstream.pipe(client);
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seed,
    stats,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
