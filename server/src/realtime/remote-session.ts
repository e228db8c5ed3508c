import type { ServerFrame } from '@campus/protocol';
import type { Session } from './registry';

/**
 * A connection held by another node, as the coordinator of a feature sees it (coordinator.ts): its frames
 * go back through Redis to that node, which sends them on the socket. Only what random talk and calls use
 * of a session means something here (who, send, closed); the chat side of a session (audiences, contacts,
 * the open chat) stays with the node holding the socket, so those do nothing.
 */
export class RemoteSession implements Session {
  /** Set when that node reported the connection closed (or this node stopped coordinating). */
  closed = false;

  constructor(
    readonly userId: string,
    private readonly out: (frame: ServerFrame) => void,
  ) {}

  send(frame: ServerFrame): void {
    if (!this.closed) this.out(frame);
  }

  joinAudience(): void {}

  hasAudience(): boolean {
    return false;
  }

  isContact(): boolean {
    return false;
  }

  openChat(): void {}
}
