import WebSocket from 'ws';
import {
  clientFrameSchema,
  CLOSE_CODES,
  PROTOCOL_VERSION,
  REALTIME_ERRORS,
  type ClientFrame,
  type HelloFrame,
} from '@campus/protocol';
import type { LiveSocketEntry, RevocableSocket } from '../lib/auth/live-sockets';
import { sessionIdFromToken } from '../lib/auth/session-token';
import { validateSessionToken } from '../lib/auth/sessions';
import { learnContacts } from './contacts';
import { invalidFrameError } from './frames';
import { handleFrame } from './handlers';
import type { CommittedChange, HubConnection } from './hub';
import type { PresenceConnection } from './presence';
import type { HeartbeatTarget, Runtime } from './runtime';

type State = 'hello' | 'auth' | 'ready' | 'syncing' | 'live' | 'closed';

/** An already encoded JSON frame still goes out as a text frame (`ws` sends Buffers as binary by default). */
const TEXT_FRAME = { binary: false } as const;

/** The TCP socket under a `ws` WebSocket (`ws` keeps it in a field it does not type). */
interface Corkable {
  cork(): void;
  uncork(): void;
}
function tcpSocket(ws: WebSocket): Corkable | undefined {
  return (ws as unknown as { _socket?: Corkable | null })._socket ?? undefined;
}

/**
 * One `/ws` connection: hello and authentication, then frames. Changes pushed before the connection's pull
 * has finished are dropped ('ready': the pull will carry them) or held ('syncing': sent after the snapshot),
 * so a client never sees a change twice or out of order across catch-up and live.
 */
export class Connection implements HubConnection, PresenceConnection, HeartbeatTarget, RevocableSocket {
  userId = '';
  readonly audiences = new Set<string>();
  contacts = new Set<string>();
  openChat: string | undefined;
  lastSeen = Date.now();
  private state: State = 'hello';
  private registered = false;
  private queued: string[] = [];
  /** Changes (and the acks that must follow them) held while a reset snapshot is being built. */
  private held: (CommittedChange | string)[] | undefined;
  private readonly helloTimer: NodeJS.Timeout;
  /** This socket in the live-socket registry, from the hello on: revoking its session closes it. */
  private session: LiveSocketEntry | undefined;

  constructor(
    readonly rt: Runtime,
    readonly ws: WebSocket,
  ) {
    rt.sockets.add(this);
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => this.onData(data, isBinary));
    ws.on('pong', () => (this.lastSeen = Date.now()));
    ws.on('close', () => this.onClose());
    ws.on('error', (err) => rt.deps.log.debug({ err }, 'websocket error'));
    this.helloTimer = setTimeout(
      () => this.close(CLOSE_CODES.helloTimeout, 'hello timeout'),
      rt.options.helloTimeoutMs,
    );
  }

  get isLive(): boolean {
    return this.state === 'live';
  }

  sendRaw(json: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(json);
  }

  /**
   * Frames sent until `uncork` leave in one write (one syscall): a sender's own change frame and its ack.
   * Calls nest; every `cork` needs its `uncork` in the same tick.
   */
  cork(): void {
    tcpSocket(this.ws)?.cork();
  }

  uncork(): void {
    tcpSocket(this.ws)?.uncork();
  }

  /** A committed change's frame, encoded once for all its recipients. */
  private sendEncoded(frame: Buffer): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(frame, TEXT_FRAME);
  }

  send(frame: object): void {
    this.sendRaw(JSON.stringify(frame));
  }

  /** An ack or refusal of a mutation: after the change frames of its commit, even while those are held. */
  sendAfterChanges(frame: object): void {
    if (this.held) this.held.push(JSON.stringify(frame));
    else this.send(frame);
  }

  push(item: CommittedChange): void {
    if (this.state === 'live') this.deliver(item);
    else if (this.held) this.held.push(item);
    // Dropped because the pull will carry it, but the contact it makes counts from now (presence, typing).
    else if (this.state === 'ready') this.learnContacts(item.change);
  }

  /** The pull is answered up to `cursor`: from now on changes go out as they commit. */
  goLive(cursor: number): void {
    if (this.state === 'closed') return;
    this.state = 'live';
    const held = this.held ?? [];
    this.held = undefined;
    for (const item of held) {
      if (typeof item === 'string') this.sendRaw(item);
      else if (item.change.seq > cursor) this.deliver(item);
      else this.learnContacts(item.change);
    }
  }

  /** A reset snapshot is being built asynchronously: hold live changes until it is sent. */
  hold(): void {
    this.state = 'syncing';
    this.held = [];
  }

  get syncing(): boolean {
    return this.state === 'syncing';
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)
      this.ws.close(code, reason);
  }

  /**
   * The session was revoked (logout, password reset): from this moment nothing is delivered and no frame is
   * read, even before the close handshake ends; then 4401, which signs the client out.
   */
  revoke(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.held = undefined;
    this.queued = [];
    this.close(CLOSE_CODES.unauthorized, 'session revoked');
    // A client that never answers the close must not stay registered (and online) for ws's 30 s timeout.
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  kill(): void {
    this.close(CLOSE_CODES.deadPeer, 'no heartbeat');
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  private deliver(item: CommittedChange): void {
    this.sendEncoded(item.frame);
    const change = item.change;
    if (change.type === 'receive_message') {
      const m = change.message;
      if (m.to.id === this.userId && m.status === 'sent') this.rt.delivery.add(this.userId, m.from.id, m.id);
    } else if (change.type === 'group_joined') {
      this.rt.hub.addAudience(this, `g:${change.group.id}`);
    }
    this.learnContacts(change);
  }

  /** A first message or a shared group makes a contact: from now on each hears the other's presence. */
  private learnContacts(change: CommittedChange['change']): void {
    const added = learnContacts(this, change);
    if (added.length) this.rt.presence.contactsAdded(this, added);
  }

  private onData(data: WebSocket.RawData, isBinary: boolean): void {
    this.lastSeen = Date.now();
    if (this.state === 'closed') return;
    const text = isBinary ? '' : data.toString();
    if (this.state === 'auth') this.queued.push(text);
    else this.handleText(text);
  }

  private handleText(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      if (this.state === 'hello') return this.close(CLOSE_CODES.unauthorized, 'hello expected');
      return this.send({ type: 'message_error', error: REALTIME_ERRORS.badFrame, context: 'unknown' });
    }
    const parsed = clientFrameSchema.safeParse(raw);
    if (this.state === 'hello') {
      if (!parsed.success || parsed.data.type !== 'hello')
        return this.close(CLOSE_CODES.unauthorized, 'hello expected');
      return void this.hello(parsed.data).catch((err: unknown) => {
        this.rt.deps.log.error({ err }, 'realtime hello failed');
        this.close(CLOSE_CODES.serverError, 'internal error');
      });
    }
    if (!parsed.success) return this.send(invalidFrameError(raw));
    this.dispatch(parsed.data);
  }

  private dispatch(frame: ClientFrame): void {
    try {
      handleFrame(this, frame);
    } catch (err) {
      this.rt.deps.log.error({ err, type: frame.type }, 'realtime frame failed');
      const mutation = 'deviceId' in frame ? { deviceId: frame.deviceId, mid: frame.mid } : {};
      this.send({ type: 'message_error', error: REALTIME_ERRORS.internal, context: frame.type, ...mutation });
    }
  }

  private async hello(frame: HelloFrame): Promise<void> {
    if (frame.v !== PROTOCOL_VERSION) {
      this.send({ type: 'message_error', error: REALTIME_ERRORS.protocolVersion, context: 'hello' });
      return this.close(CLOSE_CODES.protocolVersion, 'protocol version');
    }
    this.state = 'auth';
    const { deps, hub, presence } = this.rt;
    // Tracked before the lookup, so a logout that commits while it runs still reaches this socket.
    this.session = deps.liveSockets.track(sessionIdFromToken(frame.token), this);
    let auth: Awaited<ReturnType<typeof validateSessionToken>>;
    try {
      auth = await validateSessionToken(deps.db, frame.token, deps.now());
    } catch (err) {
      // A database fault says nothing about the token: 1011 makes the client retry, 4401 would sign it out.
      if (this.state !== 'auth') return;
      deps.log.error({ err }, 'realtime sign-in failed');
      this.state = 'closed';
      return this.close(CLOSE_CODES.serverError, 'server error');
    }
    // Closed or revoked meanwhile.
    if (this.state !== 'auth') return;
    if (hub.closed) {
      this.state = 'closed';
      return this.close(CLOSE_CODES.shuttingDown, 'server shutting down');
    }
    if (!auth) {
      this.state = 'closed';
      return this.close(CLOSE_CODES.unauthorized, 'unauthorized');
    }
    this.session.identify(auth.user.id);
    clearTimeout(this.helloTimer);
    if ((hub.connectionsOf(auth.user.id)?.size ?? 0) >= this.rt.options.maxConnectionsPerUser) {
      this.state = 'closed';
      return this.close(CLOSE_CODES.tooManyConnections, 'too many connections');
    }
    this.userId = auth.user.id;
    this.audiences.add(`u:${this.userId}`);
    for (const audience of presence.groupAudiences(this.userId)) this.audiences.add(audience);
    this.contacts = presence.loadContacts(this.userId);
    const first = hub.register(this);
    this.registered = true;
    this.state = 'ready';
    this.send({
      type: 'welcome',
      v: PROTOCOL_VERSION,
      userId: this.userId,
      heartbeatMs: this.rt.options.heartbeatMs,
    });
    presence.connected(this, first);
    const queued = this.queued;
    this.queued = [];
    for (const text of queued) if (!this.closed) this.handleText(text);
  }

  private onClose(): void {
    this.state = 'closed';
    this.held = undefined;
    clearTimeout(this.helloTimer);
    this.session?.release();
    this.rt.sockets.delete(this);
    // On shutdown the database may already be closed: nobody is left to tell.
    if (!this.registered || this.rt.hub.closed) return;
    this.registered = false;
    const last = this.rt.hub.unregister(this);
    try {
      this.rt.presence.disconnected(this, last, this.openChat);
    } catch (err) {
      this.rt.deps.log.error({ err }, 'presence update failed');
    }
  }
}
