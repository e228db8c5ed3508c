import type { Redis } from 'ioredis';
import { randomKindSchema, type RandomKind } from '@campus/protocol';
import type { StoredRandom } from './handover';
import type { JoinInput, Match, QueueEvents, RandomQueues, RestoredWait, Seeker } from './matchmaker';
import type { Waiter } from './waiter';

/**
 * Who waits in which queue, for the counts route of every node (issue 14): the queues run on the node that
 * coordinates random talk only, which keeps each wait's kind in one Redis hash (`userId → kind`, written
 * with its state: StoredRandom) that any node reads here.
 */
export class RedisWaiting {
  constructor(
    private readonly client: Redis,
    private readonly key: string,
  ) {}

  /** Every wait of the deployment: the kind of queue by user. */
  async kinds(): Promise<Map<string, RandomKind>> {
    const kinds = new Map<string, RandomKind>();
    for (const [userId, raw] of Object.entries(await this.client.hgetall(this.key))) {
      const kind = randomKindSchema.safeParse(raw);
      if (kind.success) kinds.set(userId, kind.data);
    }
    return kinds;
  }
}

/**
 * The coordinator's queues, each wait that begins, changes or ends written to Redis for the next coordinator
 * (nothing is written while this node does not coordinate: StoredRandom has no term then).
 */
export class PersistedQueues implements RandomQueues<Waiter> {
  constructor(
    private readonly queues: RandomQueues<Waiter>,
    private readonly stored: StoredRandom,
  ) {}

  join(input: JoinInput<Waiter>) {
    const joined = this.queues.join(input);
    if (joined.match) this.matched([joined.match]);
    else this.stored.wait(joined.seeker);
    return joined;
  }

  leave(userId: string): Seeker<Waiter> | undefined {
    const left = this.queues.leave(userId);
    if (left) this.stored.waitGone(userId);
    return left;
  }

  waiting(userId: string): Seeker<Waiter> | undefined {
    return this.queues.waiting(userId);
  }

  all(): Seeker<Waiter>[] {
    return this.queues.all();
  }

  restore(wait: RestoredWait<Waiter>): Seeker<Waiter> {
    return this.queues.restore(wait);
  }

  /** The waits' block lists grew: written again. */
  separate(a: string, b: string): void {
    this.queues.separate(a, b);
    for (const userId of [a, b]) {
      const seeker = this.queues.waiting(userId);
      if (seeker) this.stored.wait(seeker);
    }
  }

  tick(): QueueEvents<Waiter> {
    const events = this.queues.tick();
    this.matched(events.matches);
    return events;
  }

  size(kind?: RandomKind): number {
    return this.queues.size(kind);
  }

  /** In memory only: the node forgets (it steps down, or stops), Redis keeps them for the next one. */
  clear(): void {
    this.queues.clear();
  }

  private matched(matches: readonly Match<Waiter>[]): void {
    for (const { first, second } of matches) {
      this.stored.waitGone(first.userId);
      this.stored.waitGone(second.userId);
    }
  }
}
