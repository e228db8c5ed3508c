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
  /** false: cut only when told (cutAll). */
  randomCuts?: boolean;
}

export interface FlakyProxy {
  port: number;
  seed: number;
  /** Connections accepted and connections cut by the proxy (not those that ended on their own). */
  readonly stats: { connections: number; cuts: number };
  /** While true, bytes from the server are swallowed (acks and pushes lost on the way). */
  dropDownstream: boolean;
  /** While true, bytes from the client are swallowed (mutations that never reach the server). */
  dropUpstream: boolean;
  cutAll(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the server that pipes both ways and destroys both sockets at a random moment
 * 0.2–2 s after each connection opens: the campus Wi-Fi dropping mid-frame, as often as it can.
 */
export async function startFlakyProxy(options: FlakyProxyOptions): Promise<FlakyProxy> {
  const {
    targetPort,
    targetHost = '127.0.0.1',
    seed,
    minMs = 200,
    maxMs = 2000,
    randomCuts = true,
  } = options;
  const random = seededRandom(seed);
  const stats = { connections: 0, cuts: 0 };
  const open = new Set<net.Socket>();
  const cutters = new Set<() => void>();
  const control = { dropDownstream: false, dropUpstream: false };

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
      cutters.delete(cut);
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    const cut = () => {
      if (ended) return;
      stats.cuts += 1;
      end();
    };
    cutters.add(cut);
    const timer = randomCuts ? setTimeout(cut, minMs + random() * (maxMs - minMs)) : undefined;
    client.on('data', (chunk: Buffer) => {
      if (!control.dropUpstream) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!control.dropDownstream) client.write(chunk);
    });
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
    get dropDownstream() {
      return control.dropDownstream;
    },
    set dropDownstream(on: boolean) {
      control.dropDownstream = on;
    },
    get dropUpstream() {
      return control.dropUpstream;
    },
    set dropUpstream(on: boolean) {
      control.dropUpstream = on;
    },
    cutAll() {
      for (const cut of [...cutters]) cut();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
