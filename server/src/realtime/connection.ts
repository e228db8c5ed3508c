import WebSocket from 'ws';
import {
  clientFrameSchema,
  CLOSE_CODES,
  encodeServerFrame,
  PROTOCOL_VERSION,
  REALTIME_ERRORS,
  type AckFrame,
  type ClientFrame,
  type HelloFrame,
  type MessageErrorFrame,
  type ServerFrame,
} from '@campus/protocol';
import type { LiveSocketEntry, RevocableSocket } from '../lib/auth/live-sockets';
import { sessionIdFromToken } from '../lib/auth/session-token';
import { SESSION_LOOKUP_SQL, validateSessionToken, type SessionLookupRow } from '../lib/auth/sessions';
import { audience, type Audience } from './audiences';
import type { CommittedChange } from './bus';
import { ChangeStream } from './change-stream';
import { invalidFrameError } from './frames';
import { handleFrame } from './handlers';
import type { HubConnection } from './hub';
import type { LiveConnection } from './live-connection';
import type { PresenceConnection } from './presence';
import type { HeartbeatTarget } from './heartbeat';
import type { Runtime } from './runtime';
import { sql } from './transaction';
import { corkUntilTurnEnds, tcpSocket, TEXT_FRAME, writeTextFrame } from './ws-socket';

/** The session lookup on a cached prepared statement (lib/auth/sessions.ts says why). */
const sessionLookupSql = sql<SessionLookupRow>(SESSION_LOOKUP_SQL);

/**
 * hello → auth (token checked; from registration on, changes only teach contacts) → ready (signed in; what
 * happens to changes is the ChangeStream's: dropped until the pull, held during a snapshot, then live).
 */
type State = 'hello' | 'auth' | 'ready' | 'closed';

/**
 * One `/ws` connection: hello and sign-in, then frames. Its ChangeStream hands changes over from the pull
 * to live without a change seen twice or out of order.
 */
export class Connection
  implements LiveConnection, HubConnection, PresenceConnection, HeartbeatTarget, RevocableSocket
{
  userId = '';
  readonly audiences = new Set<string>();
  readonly contacts = new Set<string>();
  /** People with a block between them and this user, either way (the session hooks say who at sign-in). */
  readonly separated = new Set<string>();
  lastSeen = Date.now();
  private chatOpenWith: string | undefined;
  private state: State = 'hello';
  private registered = false;
  private queued: string[] = [];
  /**
   * Blocks, unblocks (with whether they are contacts) and unfriends that committed while the features read
   * the contacts at sign-in: the read may predate them, so they are applied after it, in order.
   */
  private contactChangesWhileOpening: [
    userId: string,
    change: 'separate' | 'reunite' | 'part',
    contact: boolean,
  ][] = [];
  private readonly stream: ChangeStream;
  private readonly helloTimer: NodeJS.Timeout;
  /** This socket in the live-socket registry, from the hello on: revoking its session closes it. */
  private session: LiveSocketEntry | undefined;

  constructor(
    private readonly rt: Runtime,
    readonly ws: WebSocket,
  ) {
    this.stream = new ChangeStream(rt, this);
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

  // ---- Session (what features see)

  send(frame: ServerFrame): void {
    this.sendRaw(encodeServerFrame(frame));
  }

  joinAudience(key: Audience): void {
    if (!this.audiences.has(key)) this.rt.hub.addAudience(this, key);
  }

  hasAudience(key: Audience): boolean {
    return this.audiences.has(key);
  }

  isContact(userId: string): boolean {
    return this.contacts.has(userId);
  }

  isSeparatedFrom(userId: string): boolean {
    return this.separated.has(userId);
  }

  separateFrom(userId: string): void {
    if (this.state === 'auth') return void this.contactChangesWhileOpening.push([userId, 'separate', false]);
    this.separated.add(userId);
    this.forgetContact(userId);
  }

  reuniteWith(userId: string, contact: boolean): void {
    if (this.state === 'auth') return void this.contactChangesWhileOpening.push([userId, 'reunite', contact]);
    this.separated.delete(userId);
    if (!contact || userId === this.userId || this.contacts.has(userId)) return;
    this.contacts.add(userId);
    this.rt.presence.contactsAdded(this, [userId]);
  }

  partFrom(userId: string): void {
    if (this.state === 'auth') return void this.contactChangesWhileOpening.push([userId, 'part', false]);
    this.forgetContact(userId);
  }

  private forgetContact(userId: string): void {
    this.contacts.delete(userId);
    // Their chat open here would keep their presence coming (presence watchers): close it for presence.
    if (this.chatOpenWith === userId) this.openChat(undefined);
  }

  openChat(peerId: string | undefined): void {
    this.rt.presence.watch(this, peerId, this.chatOpenWith);
    this.chatOpenWith = peerId;
    this.rt.presence.sendOnlineList(this);
  }

  // ---- what the engine uses

  sendRaw(json: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(json);
  }

  sendEncoded(json: string): void {
    this.sendRaw(json);
  }

  cork(): void {
    tcpSocket(this.ws)?.cork();
  }

  uncork(): void {
    tcpSocket(this.ws)?.uncork();
  }

  sendFrame(frame: Buffer): void {
    // Framed once per change for all its recipients and written in one go (ws-socket.ts), else through ws.
    if (this.ws.readyState === WebSocket.OPEN && !writeTextFrame(this.ws, frame))
      this.ws.send(frame, TEXT_FRAME);
  }

  sendEphemeral(payload: Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    // Presence and typing: coalesced with the turn's other frames to this socket, and framed once for all
    // their recipients like a change (ws-socket.ts).
    const socket = tcpSocket(this.ws);
    if (socket) corkUntilTurnEnds(socket);
    if (!writeTextFrame(this.ws, payload)) this.ws.send(payload, TEXT_FRAME);
  }

  sendAfterChanges(frame: AckFrame | MessageErrorFrame): void {
    const json = encodeServerFrame(frame);
    if (!this.stream.holdAfterChanges(json)) this.sendRaw(json);
  }

  push(item: CommittedChange): void {
    if (this.state !== 'closed') this.stream.push(item);
  }

  goLive(cursor: number): void {
    if (this.state !== 'closed') this.stream.goLive(cursor);
  }

  hold(): void {
    this.stream.hold();
  }

  get syncing(): boolean {
    return this.stream.holding;
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
    this.stream.stop();
    this.queued = [];
    this.close(CLOSE_CODES.unauthorized, 'session revoked');
    // A client that never answers the close must not stay registered (and online) for ws's 30 s timeout.
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  /**
   * The node is draining: from now on no frame is read (a mutation sent after this is not applied, so the
   * client's outbox sends it again to the next node), then 1012, which the client takes as "reconnect now".
   */
  drain(): void {
    this.stopReading(CLOSE_CODES.serviceRestart, 'server restarting');
  }

  stopReading(code: number, reason: string, after?: Promise<unknown>): void {
    if (this.state !== 'closed') {
      this.state = 'closed';
      this.queued = [];
    }
    const close = () => {
      this.stream.stop();
      this.close(code, reason);
      // A client that never answers the close must not hold a drain for ws's 30 s closing timeout.
      setTimeout(() => this.ws.terminate(), 1000).unref();
    };
    if (after) void after.finally(close);
    else close();
  }

  kill(): void {
    this.close(CLOSE_CODES.deadPeer, 'no heartbeat');
    setTimeout(() => this.ws.terminate(), 1000).unref();
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
      return this.send(invalidFrameError(undefined));
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
    if (!parsed.success) return this.send(invalidFrameError(raw, parsed.error));
    this.dispatch(parsed.data);
  }

  private dispatch(frame: ClientFrame): void {
    try {
      handleFrame(this.rt, this, frame);
    } catch (err) {
      this.rt.deps.log.error({ err, type: frame.type }, 'realtime frame failed');
      const mutation = 'deviceId' in frame ? { deviceId: frame.deviceId, mid: frame.mid } : {};
      const error = REALTIME_ERRORS.internal;
      this.send({ type: 'message_error', code: 'internal', error, context: frame.type, ...mutation });
    }
  }

  private async hello(frame: HelloFrame): Promise<void> {
    if (frame.v !== PROTOCOL_VERSION) {
      const error = REALTIME_ERRORS.protocolVersion;
      this.send({ type: 'message_error', code: 'protocolVersion', error, context: 'hello' });
      return this.close(CLOSE_CODES.protocolVersion, 'protocol version');
    }
    this.state = 'auth';
    const { deps, hub, presence } = this.rt;
    // Tracked before the lookup, so a logout that commits while it runs still reaches this socket.
    this.session = deps.liveSockets.track(sessionIdFromToken(frame.token), this);
    let auth: Awaited<ReturnType<typeof validateSessionToken>>;
    try {
      auth = await validateSessionToken(deps.db, frame.token, deps.now(), (id) =>
        this.rt.transactor.read((tx) => tx.first(sessionLookupSql, id, id, id)),
      );
    } catch (err) {
      // A database fault says nothing about the token: 1011 makes the client retry, 4401 would sign it out.
      return this.fail(err, 'realtime sign-in failed');
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
    if (hub.connectionCount(auth.user.id) >= this.rt.options.maxConnectionsPerUser) {
      this.state = 'closed';
      return this.close(CLOSE_CODES.tooManyConnections, 'too many connections');
    }
    this.userId = auth.user.id;
    // Every signed-in connection hears its user's changes and those for all students (confessions).
    this.audiences.add(audience.user(this.userId));
    this.audiences.add(audience.allStudents);
    // Registered before the features load the rest, so nothing committed meanwhile passes it by: a
    // group_joined reaching it now still teaches contacts and is carried by the pull.
    const first = hub.register(this);
    this.registered = true;
    let opened: Awaited<ReturnType<Runtime['features']['session']['open']>>;
    try {
      opened = await this.rt.features.session.open(this.userId);
    } catch (err) {
      return this.fail(err, 'realtime session failed to open');
    }
    if (this.state !== 'auth') return;
    for (const key of opened.audiences) this.joinAudience(key);
    for (const id of opened.separated ?? []) this.separated.add(id);
    for (const id of opened.contacts) if (id !== this.userId) this.contacts.add(id);
    for (const [id, change, contact] of this.contactChangesWhileOpening) {
      if (change === 'reunite') {
        this.separated.delete(id);
        if (contact && id !== this.userId) this.contacts.add(id);
        continue;
      }
      if (change === 'separate') this.separated.add(id);
      this.contacts.delete(id);
    }
    this.contactChangesWhileOpening = [];
    // Contacts a change taught meanwhile (a new group's members) included: none across a block.
    for (const id of this.separated) this.contacts.delete(id);
    this.state = 'ready';
    // The welcome, the online list and count, and the answers to the frames queued meanwhile leave in one
    // write, not one system call each: about 2,000 fewer when 1,000 clients sign in at once, as after a
    // restart. Corked until the turn ends, not just for these lines: the client sends its pull right behind
    // the hello, and on SQLite its answer (a snapshot or the pages since its cursor) is ready within this
    // turn, so it joins the same write (1,000 sign-ins: about 900 fewer writes and 1,000 fewer reads).
    const socket = tcpSocket(this.ws);
    if (socket) corkUntilTurnEnds(socket);
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

  /** A server fault during sign-in: retryable 1011, never 4401 (which would sign the client out). */
  private fail(err: unknown, message: string): void {
    if (this.state !== 'auth') return;
    this.rt.deps.log.error({ err }, message);
    this.state = 'closed';
    this.close(CLOSE_CODES.serverError, 'server error');
  }

  private onClose(): void {
    this.state = 'closed';
    this.stream.stop();
    clearTimeout(this.helloTimer);
    this.session?.release();
    this.rt.sockets.delete(this);
    // On shutdown the database may already be closed: nobody is left to tell.
    if (!this.registered || this.rt.hub.closed) return;
    this.registered = false;
    const last = this.rt.hub.unregister(this);
    try {
      this.rt.presence.disconnected(this, last, this.chatOpenWith);
    } catch (err) {
      this.rt.deps.log.error({ err }, 'presence update failed');
    }
    try {
      this.rt.features.session.closed?.(this);
    } catch (err) {
      this.rt.deps.log.error({ err }, 'session close hook failed');
    }
  }
}
