import type { Duplex } from 'node:stream';
import { createMiddleware } from 'hono/factory';
import { SERVER_MSG } from '@campus/protocol';

/** Seconds a refused upgrade is told to wait before it reconnects (to another node, by then). */
const RETRY_AFTER_SECONDS = '1';

/** How long one readiness check may take before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 2000;

/**
 * Something this node needs to serve: the database today; Redis (REDIS_URL) joins the list when it exists.
 * `run` resolves when the dependency answered and rejects when it did not.
 */
export interface ReadinessCheck {
  readonly name: string;
  run(): Promise<unknown>;
}

export type CheckState = 'ok' | 'failed' | 'timeout';

export type Readiness =
  | { status: 'ready'; checks: Record<string, CheckState> }
  | { status: 'unavailable'; checks: Record<string, CheckState> }
  | { status: 'draining' };

/**
 * This node's lifecycle as the load balancer sees it: ready when every check answers, and draining from
 * SIGTERM on (server.ts). Also counts the HTTP requests in flight, which a drain lets finish.
 */
export class NodeLifecycle {
  private isDraining = false;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly checks: readonly ReadinessCheck[],
    private readonly checkTimeoutMs = READY_CHECK_TIMEOUT_MS,
  ) {}

  get draining(): boolean {
    return this.isDraining;
  }

  startDraining(): void {
    this.isDraining = true;
  }

  /** Runs every check at once, each bounded by the timeout; only check names and states come back. */
  async readiness(): Promise<Readiness> {
    if (this.isDraining) return { status: 'draining' };
    const states = await Promise.all(this.checks.map((check) => runBounded(check, this.checkTimeoutMs)));
    const checks = Object.fromEntries(this.checks.map((check, i) => [check.name, states[i]!]));
    // A drain that began while the checks ran wins: the balancer must stop sending at once.
    if (this.isDraining) return { status: 'draining' };
    return { status: states.every((state) => state === 'ok') ? 'ready' : 'unavailable', checks };
  }

  /** Resolves when no HTTP request is being handled (a drain waits for it, within its deadline). */
  requestsDone(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * The middleware's refusal for an upgrade that does not pass through Hono (`/ws`, realtime/ws-route.ts):
   * while draining, 503 with Retry-After, and the socket ends; true when it answered. Such an upgrade
   * completes in the turn it arrives in, so no drain can begin while it is in flight: it is not counted.
   */
  refuseUpgradeWhileDraining(socket: Duplex): boolean {
    if (!this.isDraining) return false;
    const body = JSON.stringify({ error: SERVER_MSG.restarting });
    // Node leaves an upgrade's socket without an error listener (a reset would be an uncaught error), and a
    // server socket is half-open: a client that never closes its side would hold the listener's close, and
    // so the drain, until the deadline. Destroyed once the answer is written, as ws does with its refusals.
    socket.on('error', () => socket.destroy());
    socket.once('finish', () => socket.destroy());
    socket.end(
      `HTTP/1.1 503 Service Unavailable\r\nRetry-After: ${RETRY_AFTER_SECONDS}\r\nConnection: close\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    return true;
  }

  /**
   * Counts requests in flight; while draining, a WebSocket upgrade gets 503 (the client reconnects, and the
   * balancer sends it to another node) and every answer closes its connection instead of keeping it alive.
   */
  middleware() {
    return createMiddleware(async (c, next) => {
      if (this.isDraining && c.req.header('upgrade')?.toLowerCase() === 'websocket') {
        c.header('Retry-After', RETRY_AFTER_SECONDS);
        return c.json({ error: SERVER_MSG.restarting }, 503);
      }
      this.inFlight += 1;
      try {
        await next();
      } finally {
        this.inFlight -= 1;
        if (this.isDraining) c.header('Connection', 'close');
        if (this.inFlight === 0) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      }
    });
  }
}

async function runBounded(check: ReadinessCheck, timeoutMs: number): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([
      check.run().then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
