import type { AppDeps } from '../../lib/deps';
import { RateLimiter } from '../../lib/rate-limit';

/** Deliveries in flight at once (each POSTs to at most 10 subscriptions, with a 10 s timeout). */
const MAX_ACTIVE = 16;
/** Deliveries waiting beyond that; more are dropped (the notification still waits in the panel). */
const MAX_WAITING = 1000;
/** Pushes per user a minute: enough to hear about new things, too few for anyone to flood a phone. */
const PER_USER = { limit: 10, windowMs: 60_000 };

/**
 * Web pushes leave through one bounded queue per server, so slow or hostile push endpoints cannot hold an
 * unbounded number of outbound requests, and one user cannot be sent more than a few a minute.
 */
export class PushQueue {
  private active = 0;
  private readonly waiting: (() => Promise<void>)[] = [];
  private readonly perUser: RateLimiter;

  /** `perUser`: the server's is every node's count (deps.rates), or pushes per user grow with the nodes. */
  constructor(now: () => number, perUser: RateLimiter = new RateLimiter(PER_USER, now)) {
    this.perUser = perUser;
  }

  /** False when the push is dropped: the user had enough this minute, or the queue is full. */
  offer(userId: string, deliver: () => Promise<void>): boolean {
    if (this.waiting.length >= MAX_WAITING || this.perUser.hitNow(userId) > 0) return false;
    this.waiting.push(deliver);
    this.pump();
    return true;
  }

  private pump(): void {
    while (this.active < MAX_ACTIVE && this.waiting.length > 0) {
      const deliver = this.waiting.shift()!;
      this.active++;
      void deliver().finally(() => {
        this.active--;
        this.pump();
      });
    }
  }
}

const queues = new WeakMap<AppDeps, PushQueue>();

export function pushQueueOf(deps: AppDeps): PushQueue {
  let queue = queues.get(deps);
  if (!queue)
    queues.set(deps, (queue = new PushQueue(deps.now, deps.rates.limiter('notifications.push', PER_USER))));
  return queue;
}
