import type { Logger } from './logger';

/** What the clock asks of Redis: `TIME`, as ioredis answers it (seconds and microseconds, as strings). */
export interface RedisTimeSource {
  time(): Promise<[string, string] | (string | number)[]>;
}

export interface DeploymentClock {
  /** Milliseconds on the deployment's time (Redis's), never less than it returned before. */
  now(): number;
  /** How far Redis's clock is ahead of this node's (ms), as last measured. */
  offsetMs(): number;
  close(): void;
}

/** Samples per measure: the one with the shortest round trip is taken (its midpoint is the least uncertain). */
const SAMPLES = 5;
/** A node further off than this is told in the log: its time sync is broken. */
const WARN_OFF_MS = 500;

/**
 * The deployment's time for a node with REDIS_URL: this node's clock moved by its measured offset to
 * Redis's `TIME`. The coordinators keep ring, grace and room deadlines in Redis as milliseconds; a node that
 * takes them over compares them with its own `now()`, so every node must count on the same clock, and a node
 * whose time sync failed (seconds off) would otherwise end a caller's grace early or ring a callee on. The
 * offset is measured at start (five `TIME` round trips, the shortest one's midpoint) and again every
 * `everyMs`; a failed measure keeps the last. `now()` never goes back when a new offset is smaller.
 */
export async function deploymentClock(
  redis: RedisTimeSource,
  log: Logger,
  localNow: () => number = Date.now,
  everyMs = 60_000,
): Promise<DeploymentClock> {
  let offset = 0;
  let last = 0;
  let warned = false;

  const measure = async (): Promise<void> => {
    let best: { rtt: number; offset: number } | undefined;
    for (let i = 0; i < SAMPLES; i++) {
      const sent = localNow();
      const [seconds, micros] = await redis.time();
      const received = localNow();
      const redisMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const sample = { rtt: received - sent, offset: redisMs - (sent + received) / 2 };
      if (Number.isFinite(sample.offset) && (!best || sample.rtt < best.rtt)) best = sample;
    }
    if (!best) return;
    offset = Math.round(best.offset);
    // Told once per stretch off, not every minute.
    const off = Math.abs(offset) > WARN_OFF_MS;
    if (off && !warned)
      log.warn(
        { offsetMs: offset },
        "this node's clock is off Redis's: deadlines use Redis's time; fix the node's time sync (NTP)",
      );
    warned = off;
  };

  try {
    await measure();
  } catch (err) {
    log.warn({ err }, "redis: TIME failed; this node's own clock is used until it answers");
  }
  const timer = setInterval(() => {
    measure().catch(() => undefined);
  }, everyMs);
  timer.unref();

  return {
    now() {
      const t = localNow() + offset;
      if (t > last) last = t;
      return last;
    },
    offsetMs: () => offset,
    close: () => clearInterval(timer),
  };
}
