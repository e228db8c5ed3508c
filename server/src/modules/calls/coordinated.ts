import type { AppDeps } from '../../deps';
import { clusterOf, Coordinator } from '../../realtime/coordinator';
import type { CallSessionFrame, FrameHandlers, ParticipationCheck, Session } from '../../realtime/registry';
import { CallSignalling, type CallTimings } from './signalling';

/**
 * Call signalling for one node of a deployment (issue 14). Who is in which call, the ring timers and the
 * first answer that takes a call must be one for every node (a caller behind node A, a callee behind node
 * B; two nodes must never put one user in two calls), so the registry runs on one node at a time, the
 * coordinator (realtime/coordinator.ts), as random talk's queues do: every node's clients' call frames,
 * their connections' closes and blocks go there, and its answers come back to the connection that asked.
 * Without REDIS_URL this is `CallSignalling` itself, in this process.
 */
export class CoordinatedCalls {
  private readonly signalling: CallSignalling;
  private readonly coordinator: Coordinator<CallSessionFrame>;

  constructor(deps: AppDeps, participation: ParticipationCheck, timings: CallTimings) {
    this.signalling = new CallSignalling(deps, participation, timings);
    this.coordinator = new Coordinator('calls', this.signalling, clusterOf(deps));
  }

  get frames(): FrameHandlers<CallSessionFrame> {
    return this.coordinator.frames;
  }

  closed(session: Session): void {
    this.coordinator.closed(session);
  }

  separated(blockerId: string, blockedId: string): void {
    this.coordinator.event('separated', blockerId, blockedId);
  }

  /** Calls still going end and are logged (their parties told first when other nodes go on). */
  async close(): Promise<void> {
    await this.coordinator.close();
    await this.signalling.close();
  }
}
