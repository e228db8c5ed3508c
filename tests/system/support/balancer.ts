import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  port: number;
  /** Which backend (index into the ports) each accepted connection went to, in order. */
  readonly routed: readonly number[];
  close(): Promise<void>;
}

/**
 * A TCP load balancer in the manner of a passive health check: each new connection goes to the first
 * backend that accepts it, so a node that closed its listener (draining) gets nothing new.
 */
export async function startBalancer(backendPorts: readonly number[]): Promise<Balancer> {
  const routed: number[] = [];
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    const tryBackend = (index: number) => {
      if (index >= backendPorts.length) return client.destroy();
      const upstream = net.connect(backendPorts[index]!, '127.0.0.1');
      let connected = false;
      // Refused (nothing listens there): the next backend.
      upstream.once('error', () => {
        if (!connected) tryBackend(index + 1);
      });
      upstream.once('connect', () => {
        connected = true;
        routed.push(index);
        open.add(upstream);
        upstream.on('close', () => {
          open.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    tryBackend(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
