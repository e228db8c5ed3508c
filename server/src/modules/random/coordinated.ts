import type { User } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { clusterOf, Coordinator } from '../../realtime/coordinator';
import type { FrameHandlers, ParticipationCheck, RandomSessionFrame, Session } from '../../realtime/registry';
import { RandomTalk, type RandomTimings } from './talk';

/**
 * Random talk for one node of a deployment (issue 14). The queues and rooms must be one for every node
 * (one queue: two students waiting behind different nodes are matched, and never twice), so they run on
 * one node at a time, the coordinator (realtime/coordinator.ts): every node's clients' frames, their
 * connections' closes, blocks and access changes go there. What is per node stays here: the cache of
 * online profiles the counts route reads. Without REDIS_URL this is `RandomTalk` itself, in this process.
 */
export class CoordinatedRandomTalk {
  private readonly talk: RandomTalk;
  private readonly coordinator: Coordinator<RandomSessionFrame>;

  constructor(deps: AppDeps, participation: ParticipationCheck, timings: RandomTimings) {
    this.talk = new RandomTalk(deps, participation, timings);
    this.coordinator = new Coordinator('random', this.talk, clusterOf(deps));
  }

  get frames(): FrameHandlers<RandomSessionFrame> {
    return this.coordinator.frames;
  }

  /** A connection signed in here: the student's profile joins this node's cache (counts). */
  connected(userId: string): void {
    this.talk.connected(userId);
  }

  profileChanged(user: User): void {
    this.talk.profileChanged(user);
  }

  recheck(userId: string): void {
    this.coordinator.event('recheck', userId);
  }

  separated(blockerId: string, blockedId: string): void {
    this.coordinator.event('separated', blockerId, blockedId);
  }

  closed(session: Session): void {
    // The coordinator's own close drops the profile too.
    if (!this.coordinator.coordinating) this.talk.offline(session.userId);
    this.coordinator.closed(session);
  }

  async close(): Promise<void> {
    await this.coordinator.close();
    this.talk.close();
  }
}
