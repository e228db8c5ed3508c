import { RANDOM, RANDOM_KINDS, type FocusedFilters, type RandomKind } from '@campus/protocol';
import { chosenGroups, scoreOf, type MatchProfile } from './match-profile';

export interface MatchTimings {
  /** Focused talk binds one chosen group fewer every this long without a match. */
  widenEveryMs: number;
  /** Not the same pair again within this long... */
  rematchCooldownMs: number;
  /** ...unless one of them has waited this long (nobody else was there for them). */
  rematchFallbackAfterMs: number;
}

export const MATCH_TIMINGS: MatchTimings = {
  widenEveryMs: RANDOM.widenEveryMs,
  rematchCooldownMs: RANDOM.rematchCooldownMs,
  rematchFallbackAfterMs: RANDOM.rematchFallbackAfterMs,
};

/** A student waiting in a queue. `holder` is the caller's own (the connection that queued, its card). */
export interface Seeker<H> {
  readonly userId: string;
  /** This wait's id (an ending sent to a wait names it where a room's would name the room). */
  readonly ticket: string;
  readonly kind: RandomKind;
  /** When the wait began (ms, the injected clock). */
  readonly since: number;
  /** Arrival order (breaks ties between waits that began in the same millisecond). */
  readonly arrival: number;
  readonly filters: FocusedFilters;
  /** How many filter groups the seeker chose (0: plain random talk). */
  readonly chosen: number;
  readonly profile: MatchProfile;
  /** Everyone with a block between them and the seeker, either way (read when they queued, plus live blocks). */
  readonly blocked: Set<string>;
  readonly holder: H;
  /** How many chosen groups still bind (drops as the wait goes on). */
  binding: number;
  /** The wait passed the rematch fallback (a recent partner may be matched again). */
  longWait: boolean;
}

export type JoinInput<H> = Pick<
  Seeker<H>,
  'userId' | 'ticket' | 'kind' | 'filters' | 'profile' | 'blocked' | 'holder'
>;

/** A wait another coordinator began (handover): as it was, with its start and its place in the queue. */
export type RestoredWait<H> = JoinInput<H> & Pick<Seeker<H>, 'since' | 'arrival'>;

/** Two seekers matched; `first` waited longer (it creates the call's offer). */
export interface Match<H> {
  readonly kind: RandomKind;
  readonly first: Seeker<H>;
  readonly second: Seeker<H>;
}

/** What time did: pairs it matched, and waits whose search widened (still waiting). */
export interface QueueEvents<H> {
  matches: Match<H>[];
  widened: Seeker<H>[];
}

/**
 * The queues of random and focused talk: one per kind of room, each student in at most one. Every method is
 * one atomic step (in-process: synchronous); a shared implementation (issue 14, Redis) would make them
 * scripts over sorted sets. Matching one seeker reads its queue once: O(queue length).
 */
export interface RandomQueues<H> {
  /** Queues the student, replacing any wait of theirs (any kind); matches them at once if someone fits. */
  join(input: JoinInput<H>): {
    seeker: Seeker<H>;
    replaced: Seeker<H> | undefined;
    match: Match<H> | undefined;
  };
  leave(userId: string): Seeker<H> | undefined;
  waiting(userId: string): Seeker<H> | undefined;
  /** Every wait. */
  all(): Seeker<H>[];
  /** Puts back a wait the previous coordinator held, unmatched (nothing changed for it but the time). */
  restore(wait: RestoredWait<H>): Seeker<H>;
  /** A block between the two just committed: never matched from now on. */
  separate(a: string, b: string): void;
  /** Widens searches and retries those whose chances changed (call it every second or so). */
  tick(): QueueEvents<H>;
  /** How many wait in one queue (or in all). */
  size(kind?: RandomKind): number;
  clear(): void;
}

const pairKey = (a: string, b: string) => (a < b ? `${a}\n${b}` : `${b}\n${a}`);

/** The queues of this process: a Map per kind, in arrival order (the longest waiting first). */
export class Matchmaker<H> implements RandomQueues<H> {
  private readonly queues = new Map<RandomKind, Map<string, Seeker<H>>>(
    RANDOM_KINDS.map((kind) => [kind, new Map()]),
  );
  private readonly byUser = new Map<string, Seeker<H>>();
  /** Pairs matched lately, by pair, with when. */
  private readonly recent = new Map<string, number>();
  private arrivals = 0;

  constructor(
    private readonly now: () => number,
    private readonly timings: MatchTimings = MATCH_TIMINGS,
  ) {}

  join(input: JoinInput<H>) {
    const replaced = this.leave(input.userId);
    const chosen = chosenGroups(input.filters);
    const seeker: Seeker<H> = {
      ...input,
      since: this.now(),
      arrival: ++this.arrivals,
      chosen,
      binding: chosen,
      longWait: false,
    };
    this.queues.get(seeker.kind)!.set(seeker.userId, seeker);
    this.byUser.set(seeker.userId, seeker);
    return { seeker, replaced, match: this.matchFor(seeker, this.now()) };
  }

  leave(userId: string): Seeker<H> | undefined {
    const seeker = this.byUser.get(userId);
    if (!seeker) return undefined;
    this.byUser.delete(userId);
    this.queues.get(seeker.kind)!.delete(userId);
    return seeker;
  }

  waiting(userId: string): Seeker<H> | undefined {
    return this.byUser.get(userId);
  }

  all(): Seeker<H>[] {
    return [...this.byUser.values()];
  }

  restore(wait: RestoredWait<H>): Seeker<H> {
    this.leave(wait.userId);
    const now = this.now();
    const chosen = chosenGroups(wait.filters);
    const longWait = now - wait.since >= this.timings.rematchFallbackAfterMs;
    const seeker: Seeker<H> = { ...wait, chosen, binding: chosen, longWait };
    // Widened as far as its time says, so the next tick does not announce it again.
    seeker.binding = this.bindingAt(seeker, now);
    this.arrivals = Math.max(this.arrivals, wait.arrival);
    this.queues.get(seeker.kind)!.set(seeker.userId, seeker);
    this.byUser.set(seeker.userId, seeker);
    return seeker;
  }

  separate(a: string, b: string): void {
    this.byUser.get(a)?.blocked.add(b);
    this.byUser.get(b)?.blocked.add(a);
  }

  tick(): QueueEvents<H> {
    const now = this.now();
    for (const [key, at] of this.recent)
      if (now - at >= this.timings.rematchCooldownMs) this.recent.delete(key);
    const changed: Seeker<H>[] = [];
    const widened: Seeker<H>[] = [];
    for (const queue of this.queues.values()) {
      for (const seeker of queue.values()) {
        let moved = false;
        const binding = this.bindingAt(seeker, now);
        if (binding < seeker.binding) {
          seeker.binding = binding;
          widened.push(seeker);
          moved = true;
        }
        if (!seeker.longWait && now - seeker.since >= this.timings.rematchFallbackAfterMs) {
          seeker.longWait = true;
          moved = true;
        }
        if (moved) changed.push(seeker);
      }
    }
    // Only a seeker whose chances changed can match now (nothing else moved since it was last tried). The
    // widened searches choose first, longest waiting first: their pick (the best score) is focused talk's
    // point, whereas a wait that only passed the rematch fallback takes whoever fits.
    const wider = new Set(widened);
    const widenedFirst = (a: Seeker<H>, b: Seeker<H>) =>
      Number(wider.has(b)) - Number(wider.has(a)) || earlier(a, b);
    const matches: Match<H>[] = [];
    for (const seeker of changed.sort(widenedFirst)) {
      if (this.byUser.get(seeker.userId) !== seeker) continue;
      const match = this.matchFor(seeker, now);
      if (match) matches.push(match);
    }
    return { matches, widened: widened.filter((s) => this.byUser.get(s.userId) === s) };
  }

  size(kind?: RandomKind): number {
    return kind === undefined ? this.byUser.size : this.queues.get(kind)!.size;
  }

  clear(): void {
    for (const queue of this.queues.values()) queue.clear();
    this.byUser.clear();
    this.recent.clear();
  }

  /** Groups that still bind: all chosen at first, one fewer every widening step. */
  private bindingAt(seeker: Seeker<H>, now: number): number {
    const steps = Math.floor(Math.max(0, now - seeker.since) / this.timings.widenEveryMs);
    return Math.max(0, seeker.chosen - steps);
  }

  /**
   * The best partner for `seeker` in its queue, matched and removed with it: the candidate that satisfies
   * most of the seeker's chosen groups, then most of the candidate's own, then one not met lately, then the
   * longest waiting. Each side's current binding must hold; never a blocked pair; a pair met within the
   * cooldown only once one of them has waited past the fallback.
   */
  private matchFor(seeker: Seeker<H>, now: number): Match<H> | undefined {
    let best: { c: Seeker<H>; key: [number, number, number] } | undefined;
    const mine = this.bindingAt(seeker, now);
    for (const c of this.queues.get(seeker.kind)!.values()) {
      if (c === seeker || seeker.blocked.has(c.userId) || c.blocked.has(seeker.userId)) continue;
      const metAt = this.recent.get(pairKey(seeker.userId, c.userId));
      const met = metAt !== undefined && now - metAt < this.timings.rematchCooldownMs;
      const fallback = this.timings.rematchFallbackAfterMs;
      if (met && now - seeker.since < fallback && now - c.since < fallback) continue;
      const forSeeker = scoreOf(seeker.filters, c.profile);
      const forCandidate = scoreOf(c.filters, seeker.profile);
      if (forSeeker < mine || forCandidate < this.bindingAt(c, now)) continue;
      const key: [number, number, number] = [forSeeker, forCandidate, met ? 0 : 1];
      if (!best || better(key, c, best.key, best.c)) best = { c, key };
    }
    if (!best) return undefined;
    const other = best.c;
    this.leave(seeker.userId);
    this.leave(other.userId);
    this.recent.set(pairKey(seeker.userId, other.userId), now);
    const [first, second] = earlier(other, seeker) < 0 ? [other, seeker] : [seeker, other];
    return { kind: seeker.kind, first, second };
  }
}

/** Negative when `a` has waited longer than `b`. */
function earlier<H>(a: Seeker<H>, b: Seeker<H>): number {
  return a.since - b.since || a.arrival - b.arrival;
}

/** Higher keys first, then the longest wait. */
function better<H>(key: number[], c: Seeker<H>, bestKey: number[], bestC: Seeker<H>): boolean {
  for (let i = 0; i < key.length; i++) if (key[i] !== bestKey[i]) return key[i]! > bestKey[i]!;
  return earlier(c, bestC) < 0;
}
