import {
  clientFrameSchema,
  type AppNotification,
  type Change,
  type ClientFrame,
  type DirectMessage,
  type MutationFrame,
  type ServerFrame,
  type SyncResetFrame,
  type UserRef,
} from '@campus/protocol';

/**
 * An in-memory stand-in for the server's `/ws`, speaking the protocol frames to one user's clients:
 * hello → welcome, pull → changes pages (or sync_reset at cursor 0), mutations applied once per
 * (deviceId, mid) with ack or message_error, live pushes of every change to welcomed sockets.
 */
export class FakeServer {
  readonly sockets: FakeSocket[] = [];
  /** Every frame any client sent, in arrival order. */
  readonly received: ClientFrame[] = [];
  readonly log: Change[] = [];
  readonly stored = new Map<string, DirectMessage>();
  /** Mutations applied (each (deviceId, mid) once, refused ones excluded), in order. */
  readonly applied: MutationFrame[] = [];
  private readonly lastMid = new Map<string, number>();
  private seq = 0;
  pageSize = 1000;
  /** When false, mutations are recorded but neither applied nor answered (a server that never got them). */
  answering = true;
  /** When true, mutations are applied but their ack is lost on the way (the client must resend them). */
  dropAcks = false;
  /** Refuse a mutation with this text. */
  refuse: (frame: ClientFrame) => string | undefined = () => undefined;
  /** The snapshot a pull from cursor 0 gets; null answers an empty `changes` page instead. */
  snapshot: Omit<SyncResetFrame, 'type' | 'cursor'> | null = null;
  /** A dead peer: frames are swallowed and nothing is answered. */
  silent = false;
  /** Refuse hello with this close code. */
  closeOnHello: number | null = null;
  /** What `GET /api/notifications` answers; a number answers that HTTP status instead. */
  notifications: { notifications: AppNotification[]; unreadCount: number } | number = {
    notifications: [],
    unreadCount: 0,
  };
  /** REST requests the clients made (path only). */
  readonly requests: string[] = [];

  /** The REST side, as `fetchImpl`: only the notifications list; everything else is 404. */
  readonly fetch: typeof fetch = (input) => {
    const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
      .pathname;
    this.requests.push(path);
    const answer = path === '/api/notifications' ? this.notifications : 404;
    return Promise.resolve(
      typeof answer === 'number'
        ? new Response('{}', { status: answer })
        : new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }),
    );
  };

  constructor(
    readonly self: UserRef,
    readonly token = 'session-token-0123456789',
  ) {}

  readonly WebSocketImpl = makeSocketClass(this) as unknown as typeof WebSocket;

  get live(): FakeSocket[] {
    return this.sockets.filter((s) => s.welcomed && s.readyState === 1);
  }

  framesOfType<T extends ClientFrame['type']>(type: T): Extract<ClientFrame, { type: T }>[] {
    return this.received.filter((f): f is Extract<ClientFrame, { type: T }> => f.type === type);
  }

  /** Appends a change to the log and pushes it live. */
  emit(draft: Change): Change {
    this.seq += 1;
    const change = { ...draft, seq: this.seq } as Change;
    this.log.push(change);
    for (const socket of this.live) socket.deliver(change);
    return change;
  }

  /** Cuts every open connection as a network failure would. */
  cutAll(): void {
    for (const socket of [...this.sockets]) socket.serverClose(1006);
  }

  handle(socket: FakeSocket, frame: ClientFrame): void {
    this.received.push(frame);
    if (this.silent) return;
    switch (frame.type) {
      case 'hello':
        if (this.closeOnHello !== null || frame.token !== this.token) {
          socket.serverClose(this.closeOnHello ?? 4401);
          return;
        }
        socket.welcomed = true;
        socket.deliver({ type: 'welcome', v: frame.v, userId: this.self.id, heartbeatMs: 10_000 });
        return;
      case 'ping':
        socket.deliver({ type: 'pong', t: frame.t });
        return;
      case 'pull':
        this.pull(socket, frame.cursor);
        return;
      case 'send_message':
      case 'send_group_message':
      case 'mark_messages_as_read':
      case 'chat-reaction':
      case 'confession_react':
      case 'confession_comment':
      case 'confession_post':
      case 'mark_notification_read':
        this.mutate(socket, frame);
        return;
      default:
        return;
    }
  }

  private pull(socket: FakeSocket, cursor: number): void {
    if (cursor === 0 && this.snapshot) {
      socket.deliver({ type: 'sync_reset', cursor: this.seq, ...this.snapshot });
      return;
    }
    // Like the server: one pull is answered with every page, the last one saying hasMore false.
    const after = this.log.filter((c) => c.seq > cursor);
    for (let i = 0; i === 0 || i < after.length; i += this.pageSize) {
      const page = after.slice(i, i + this.pageSize);
      const hasMore = i + this.pageSize < after.length;
      socket.deliver({
        type: 'changes',
        changes: page,
        cursor: hasMore ? page.at(-1)!.seq : this.seq,
        hasMore,
      });
    }
  }

  private mutate(socket: FakeSocket, frame: MutationFrame): void {
    if (!this.answering) return;
    const { deviceId, mid } = frame;
    if (mid <= (this.lastMid.get(deviceId) ?? 0)) {
      socket.deliver({ type: 'ack', deviceId, mid });
      return;
    }
    this.lastMid.set(deviceId, mid);
    const error = this.refuse(frame);
    if (error) {
      socket.deliver({ type: 'message_error', error, context: frame.type, deviceId, mid });
      return;
    }
    this.applied.push(frame);
    if (frame.type === 'send_message' && !this.stored.has(frame.id)) {
      const message: DirectMessage = {
        id: frame.id,
        from: this.self,
        to: { id: frame.to, firstName: 'Peer', lastName: frame.to, profilePictureUrl: null },
        content: frame.content,
        timestamp: new Date().toISOString(),
        status: 'sent',
        attachmentUrl: null,
        attachmentType: null,
        replyTo: frame.replyTo ?? null,
        reactions: [],
      };
      this.stored.set(frame.id, message);
      this.emit({ type: 'receive_message', seq: 0, message: { ...message, seq: this.seq + 1 } });
    }
    if (this.dropAcks) return;
    socket.deliver({ type: 'ack', deviceId, mid });
  }
}

export interface FakeSocket {
  readyState: number;
  welcomed: boolean;
  deliver(frame: ServerFrame): void;
  serverClose(code: number): void;
}

function makeSocketClass(server: FakeServer) {
  return class implements FakeSocket {
    readyState = 0;
    welcomed = false;
    onopen: (() => void) | null = null;
    onmessage: ((event: { data: string }) => void) | null = null;
    onclose: ((event: { code: number }) => void) | null = null;
    onerror: (() => void) | null = null;

    constructor(readonly url: string) {
      server.sockets.push(this);
      setTimeout(() => {
        if (this.readyState !== 0) return;
        this.readyState = 1;
        this.onopen?.();
      }, 1);
    }

    send(data: string): void {
      if (this.readyState !== 1) throw new Error('not open');
      const frame = clientFrameSchema.parse(JSON.parse(data));
      setTimeout(() => {
        if (this.readyState === 1) server.handle(this, frame);
      }, 0);
    }

    deliver(frame: ServerFrame): void {
      const data = JSON.stringify(frame);
      setTimeout(() => {
        if (this.readyState === 1) this.onmessage?.({ data });
      }, 0);
    }

    close(code = 1000): void {
      this.serverClose(code);
    }

    serverClose(code: number): void {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.welcomed = false;
      setTimeout(() => this.onclose?.({ code }), 0);
    }
  };
}

/** Polls until `check` passes (it throws or returns false meanwhile). */
export async function waitFor(check: () => unknown | Promise<unknown>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if ((await check()) !== false) return;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw last instanceof Error ? last : new Error('waitFor timed out');
}
