import 'fake-indexeddb/auto';
import { waitFor } from '@testing-library/react';
import {
  PROTOCOL_VERSION,
  type ChangeDraft,
  type Confession,
  type MutationFrame,
  type MutationType,
  type RealtimeErrorReason,
} from '@campus/protocol';
import { createSyncClient, openUserDatabase, type SyncClient, type SyncClientOptions } from '@campus/sync';

/**
 * The real sync client (outbox, rollback, change appliers) against a scripted `/ws`: the test decides when
 * the server acknowledges or refuses a write and which changes it pushes, and sees every mutation that
 * reached it. REST stays mocked by `mockServer`, as in every screen test.
 */
export interface ScriptedServer {
  factory(options: SyncClientOptions): SyncClient;
  /** The clients the app made, newest last. */
  clients: SyncClient[];
  /** The session tokens the clients said hello with. */
  tokens: string[];
  /** Mutations that reached the server (of one type), in order. */
  received<T extends MutationType>(type: T): Extract<MutationFrame, { type: T }>[];
  /** Acknowledges the newest unanswered mutation of that type (waits until it has arrived). */
  ack(type: MutationType): Promise<void>;
  /** Refuses it: `message_error` with its (deviceId, mid), the reason code and the text to show. */
  refuse(type: MutationType, error: string, code?: RealtimeErrorReason): Promise<void>;
  /** Pushes a live change to the connected client, numbered after the last one. */
  push(change: ChangeDraft): void;
}

type Listener = ((event: { data?: unknown; code?: number }) => void) | null;

export function scriptedServer(): ScriptedServer {
  const sockets: FakeSocket[] = [];
  const frames: MutationFrame[] = [];
  const answered = new Set<MutationFrame>();
  const clients: SyncClient[] = [];
  const tokens: string[] = [];
  let seq = 0;

  function answer(socket: FakeSocket, frame: { type: string; [key: string]: unknown }) {
    if (frame.type === 'hello') {
      tokens.push(String(frame.token));
      socket.deliver({ type: 'welcome', v: PROTOCOL_VERSION, userId: 'server', heartbeatMs: 10_000 });
    } else if (frame.type === 'pull') {
      socket.deliver({ type: 'changes', changes: [], cursor: seq, hasMore: false });
    } else if (frame.type === 'ping') {
      socket.deliver({ type: 'pong', t: frame.t });
    } else if ('deviceId' in frame && 'mid' in frame) {
      frames.push(frame as unknown as MutationFrame);
    }
  }

  class FakeSocket {
    readyState = 0;
    onopen: Listener = null;
    onmessage: Listener = null;
    onclose: Listener = null;
    onerror: Listener = null;
    constructor(readonly url: string) {
      sockets.push(this);
      setTimeout(() => {
        this.readyState = 1;
        this.onopen?.({});
      }, 0);
    }
    send(data: string) {
      answer(this, JSON.parse(data) as { type: string });
    }
    close() {
      this.readyState = 3;
    }
    deliver(frame: object) {
      if (this.readyState === 1) this.onmessage?.({ data: JSON.stringify(frame) });
    }
  }

  const live = () => sockets.filter((socket) => socket.readyState === 1).at(-1);

  async function unanswered(type: MutationType): Promise<MutationFrame> {
    let found: MutationFrame | undefined;
    await waitFor(() => {
      found = frames.filter((f) => f.type === type && !answered.has(f)).at(-1);
      if (!found) throw new Error(`No ${type} reached the server`);
    });
    answered.add(found!);
    return found!;
  }

  return {
    clients,
    tokens,
    factory(options) {
      const client = createSyncClient({
        ...options,
        db: options.db ?? openUserDatabase(options.self.id),
        WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
        network: null,
      });
      clients.push(client);
      return client;
    },
    received: <T extends MutationType>(type: T) =>
      frames.filter((f): f is Extract<MutationFrame, { type: T }> => f.type === type),
    async ack(type) {
      const { deviceId, mid } = await unanswered(type);
      live()?.deliver({ type: 'ack', deviceId, mid });
    },
    async refuse(type, error, code = 'invalid') {
      const { deviceId, mid } = await unanswered(type);
      live()?.deliver({ type: 'message_error', code, error, context: type, deviceId, mid });
    },
    push(change) {
      seq += 1;
      live()?.deliver({ ...change, seq });
    },
  };
}

/** A confession as `confession_posted` carries it: as a stranger sees it. */
export function postedChange(confession: Confession): ChangeDraft {
  return { type: 'confession_posted', confession: { ...confession, isMine: false, myReactions: [] } };
}
