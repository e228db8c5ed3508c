import {
  CLOSE_CODES,
  PROTOCOL_VERSION,
  serverFrameSchema,
  type ClientFrame,
  type ServerFrame,
  type WelcomeFrame,
} from '@campus/protocol';
import { reconnectDelay } from './backoff';

export type ConnectionStatus = 'connecting' | 'online' | 'offline';

export type RealtimeTiming = Record<
  'heartbeatMs' | 'deadPeerMs' | 'connectTimeoutMs' | 'reconnectMinMs' | 'reconnectMaxMs',
  number
>;

export interface ConnectionEvents {
  /** A session reached `welcome`. `generation` numbers sessions so work of a dead one can be told apart. */
  welcome(frame: WelcomeFrame, generation: number): void;
  frame(frame: ServerFrame, generation: number): void;
  status(status: ConnectionStatus): void;
  /** The server refused us for good (bad session or outdated app): no more reconnects. */
  refused(code: number): void;
}

/**
 * What the device says about its network. When it reports offline the channel drops its socket at once and
 * waits for the network instead of trusting a link the OS already gave up (laptop sleep, Wi-Fi lost).
 */
export interface NetworkSignal {
  online(): boolean;
  onChange(listener: (online: boolean) => void): () => void;
}

/** The browser's `online`/`offline` events; undefined where there are none (Node). */
export function browserNetworkSignal(): NetworkSignal | undefined {
  const nav = (globalThis as { navigator?: { onLine?: unknown } }).navigator;
  if (typeof globalThis.addEventListener !== 'function' || typeof nav?.onLine !== 'boolean') return undefined;
  return {
    online: () => nav.onLine !== false,
    onChange(listener) {
      const up = () => listener(true);
      const down = () => listener(false);
      globalThis.addEventListener('online', up);
      globalThis.addEventListener('offline', down);
      return () => {
        globalThis.removeEventListener('online', up);
        globalThis.removeEventListener('offline', down);
      };
    },
  };
}

export interface ConnectionOptions {
  url: string;
  /**
   * The frame that follows the hello on every session (the engine's pull), asked for as the socket starts
   * connecting so the read it needs overlaps the handshake. It goes right behind the hello, without waiting
   * for the welcome: the server keeps frames that arrive while it checks the token and answers them after
   * its welcome, so a reconnect catches up one round trip sooner, and on one node the welcome and the pull's
   * answer leave in one write. If it is ready only after the socket opened, it goes when it is ready; if it
   * fails, the session is dropped and the next one asks again.
   */
  opening?: () => Promise<ClientFrame>;
  network?: NetworkSignal;
  token: string;
  WebSocketImpl: typeof WebSocket;
  timing: RealtimeTiming;
  random: () => number;
  events: ConnectionEvents;
}

/** WebSocket ready states (the standard values, read without a WebSocket class at hand). */
const CONNECTING = 0;
const OPEN = 1;

const FINAL_CLOSE_CODES: readonly number[] = [CLOSE_CODES.unauthorized, CLOSE_CODES.protocolVersion];

/**
 * One logical realtime channel over a succession of WebSockets: hello → welcome handshake with a connect
 * timeout, client pings, dead-peer detection, and reconnects with jittered backoff until stopped.
 */
export class RealtimeConnection {
  private socket: WebSocket | null = null;
  private generation = 0;
  private welcomed = false;
  private running = false;
  private attempt = 0;
  private lastPingAt = 0;
  /** When the oldest ping that no frame has answered yet went out; undefined while none is outstanding. */
  private pingOutstandingSince: number | undefined;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private unwatchNetwork: (() => void) | undefined;

  constructor(private readonly options: ConnectionOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unwatchNetwork = this.options.network?.onChange((online) => this.networkChanged(online));
    this.open();
  }

  stop(): void {
    this.running = false;
    this.unwatchNetwork?.();
    this.unwatchNetwork = undefined;
    clearTimeout(this.reconnectTimer);
    this.drop(1000);
    this.options.events.status('offline');
  }

  /** Sends on the current session if it is past `welcome`; false when the frame could not go out. */
  send(frame: ClientFrame, generation = this.generation): boolean {
    const socket = this.socket;
    if (!this.isLive(generation) || !socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  /** Drops the current session and reconnects as after a lost link (the next session pulls again). */
  restart(): void {
    if (this.running && this.socket) this.lose();
  }

  /**
   * The session's pull or snapshot is applied: the link works end to end, so the next failure starts the
   * backoff afresh. A welcome alone does not: a session that fails after it (a page that never applies, a
   * server failing every pull) would otherwise reconnect at the shortest delay forever.
   */
  caughtUp(generation: number): void {
    if (this.isLive(generation)) this.attempt = 0;
  }

  isLive(generation: number): boolean {
    return this.welcomed && generation === this.generation && this.socket !== null;
  }

  private networkChanged(online: boolean): void {
    if (!this.running) return;
    clearTimeout(this.reconnectTimer);
    if (online) {
      // Back on the network: try now rather than after a backoff that was counting failures offline.
      this.attempt = 0;
      if (!this.socket) this.open();
      return;
    }
    this.drop(4000);
    this.options.events.status('offline');
  }

  private open(): void {
    const { WebSocketImpl, url, timing, events, network } = this.options;
    if (network && !network.online()) {
      events.status('offline');
      return;
    }
    this.generation += 1;
    this.welcomed = false;
    events.status('connecting');
    let socket: WebSocket;
    try {
      socket = new WebSocketImpl(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.connectTimer = setTimeout(() => this.lose(), timing.connectTimeoutMs);
    let opened = false;
    let opening: ClientFrame | undefined;
    const sendOpening = () => {
      if (!opened || !opening || socket !== this.socket || socket.readyState !== OPEN) return;
      socket.send(JSON.stringify(opening));
      opening = undefined;
    };
    this.options.opening?.().then(
      (frame) => {
        opening = frame;
        sendOpening();
      },
      () => {
        if (socket === this.socket) this.lose();
      },
    );
    socket.onopen = () => {
      const hello: ClientFrame = { type: 'hello', v: PROTOCOL_VERSION, token: this.options.token };
      socket.send(JSON.stringify(hello));
      opened = true;
      sendOpening();
    };
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = (event: CloseEvent) => {
      if (socket !== this.socket) return;
      if (FINAL_CLOSE_CODES.includes(event.code)) {
        this.running = false;
        this.drop(1000);
        events.status('offline');
        events.refused(event.code);
        return;
      }
      // A draining node asks for a reconnect elsewhere: not a failure, so no backoff (only a jitter).
      this.lose(event.code === CLOSE_CODES.serviceRestart);
    };
    // An error is always followed by close, which decides what happens next.
    socket.onerror = () => {};
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    // Any frame shows the peer is alive, so it answers the outstanding ping as a pong would.
    this.pingOutstandingSince = undefined;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = serverFrameSchema.safeParse(json);
    if (!parsed.success) return;
    const frame = parsed.data;
    if (frame.type === 'welcome' && !this.welcomed) {
      this.welcomed = true;
      clearTimeout(this.connectTimer);
      this.startHeartbeat();
      this.options.events.status('online');
      this.options.events.welcome(frame, this.generation);
      return;
    }
    this.options.events.frame(frame, this.generation);
  }

  /**
   * Pings every heartbeatMs and drops the link when a ping has gone unanswered for deadPeerMs. Only an
   * unanswered ping counts, not time since the last frame: the server's pings are invisible to browser JS,
   * and a hidden tab's timers run once a minute, so a healthy but quiet link would look dead at every tick.
   */
  private startHeartbeat(): void {
    const { heartbeatMs, deadPeerMs } = this.options.timing;
    this.lastPingAt = Date.now();
    this.pingOutstandingSince = undefined;
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(
      () => {
        const now = Date.now();
        if (this.pingOutstandingSince !== undefined && now - this.pingOutstandingSince > deadPeerMs) {
          this.lose();
          return;
        }
        if (now - this.lastPingAt >= heartbeatMs) {
          this.lastPingAt = now;
          if (this.send({ type: 'ping', t: now })) this.pingOutstandingSince ??= now;
        }
      },
      Math.max(50, Math.min(heartbeatMs, deadPeerMs / 3)),
    );
  }

  /**
   * The session is gone (closed, timed out or silent): forget it at once and plan the next one. `restart`:
   * the server is draining (1012), so the next attempt goes within reconnectMinMs, at a random point so its
   * clients do not all land on the other nodes at the same instant.
   */
  private lose(restart = false): void {
    this.drop(4000);
    if (!this.running) return;
    this.options.events.status('offline');
    // Offline devices wait for the network's `online` event instead of polling.
    if (this.options.network && !this.options.network.online()) return;
    if (restart) this.attempt = 0;
    this.scheduleReconnect(restart);
  }

  private scheduleReconnect(restart = false): void {
    clearTimeout(this.reconnectTimer);
    const { timing, random } = this.options;
    const delay = restart
      ? Math.floor(random() * timing.reconnectMinMs)
      : reconnectDelay(this.attempt, timing, random);
    if (!restart) this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      if (this.running) this.open();
    }, delay);
  }

  /** Detaches and closes the current socket without waiting for a closing handshake a dead link never ends. */
  private drop(code: number): void {
    clearTimeout(this.connectTimer);
    clearInterval(this.heartbeatTimer);
    const socket = this.socket;
    this.socket = null;
    this.welcomed = false;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = () => {};
    try {
      if (socket.readyState === OPEN || socket.readyState === CONNECTING) socket.close(code);
    } catch {
      // Closing a socket that never opened may throw in some implementations; it is gone either way.
    }
  }
}
