import WebSocket from 'ws';
import { io } from 'socket.io-client';
import { PROTOCOL_VERSION, REALTIME_PATH, type SendGroupMessageFrame } from '@campus/protocol';
import { firstName, groupIdOf, userId } from '../shared/population';

/** What a load client reports back to the generator; `now` is performance.now() on arrival. */
export interface ClientEvents {
  onAck(client: number, mid: number, now: number): void;
  onReceive(client: number, messageId: string, now: number): void;
  onError(client: number, error: string): void;
}

export interface LoadClient {
  send(frame: SendGroupMessageFrame): void;
  close(): void;
}

/**
 * `ours-alt`: our server from another build (BENCH_ALT_SERVER), for a before/after in one run. `ours-pg2`:
 * ours as two nodes on PostgreSQL + Redis (the same protocol, clients alternating between the nodes).
 */
export type Target = 'ours' | 'ours-alt' | 'ours-pg2' | 'plain-ws' | 'socketio';

export interface ConnectOptions {
  target: Target;
  /** http://host:port of the server. */
  url: string;
  /** Session tokens by user index (ours only). */
  tokens?: readonly string[];
}

const CONNECT_TIMEOUT_MS = 20_000;

export function connectClient(
  index: number,
  options: ConnectOptions,
  events: ClientEvents,
): Promise<LoadClient> {
  if (options.target === 'socketio') return connectSocketIo(index, options.url, events);
  if (options.target === 'plain-ws') return connectPlainWs(index, options.url, events);
  const token = options.tokens?.[index];
  if (!token) throw new Error(`no session token for client ${index}`);
  return connectOurs(index, options.url, token, events);
}

function wsUrl(url: string): string {
  return url.replace(/^http/, 'ws') + REALTIME_PATH;
}

/** Frames both ws servers send that the generator measures; everything else is ignored. */
interface MeasuredFrame {
  type: string;
  mid?: number;
  message?: { id: string };
  error?: string;
  hasMore?: boolean;
}

function handleWsFrame(index: number, data: WebSocket.RawData, events: ClientEvents): MeasuredFrame {
  const now = performance.now();
  const frame = JSON.parse(String(data)) as MeasuredFrame;
  if (frame.type === 'receive_group_message' && frame.message) events.onReceive(index, frame.message.id, now);
  else if (frame.type === 'ack' && frame.mid !== undefined) events.onAck(index, frame.mid, now);
  else if (frame.type === 'message_error') events.onError(index, frame.error ?? 'message_error');
  return frame;
}

function wrapWs(socket: WebSocket): LoadClient {
  return {
    send: (frame) => socket.send(JSON.stringify(frame)),
    close: () => socket.terminate(),
  };
}

/**
 * Ours, as the app's sync client does it: the hello with the session token and a pull from cursor 0 right
 * behind it, without waiting for the welcome; ready once the pull is answered.
 */
function connectOurs(index: number, url: string, token: string, events: ClientEvents): Promise<LoadClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(url), { perMessageDeflate: false });
    const seen: string[] = [];
    const timer = setTimeout(() => {
      socket.terminate();
      reject(
        new Error(`client ${index}: no welcome + pull answer in time (saw ${seen.join(', ') || 'nothing'})`),
      );
    }, CONNECT_TIMEOUT_MS);
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'hello', v: PROTOCOL_VERSION, token }));
      socket.send(JSON.stringify({ type: 'pull', cursor: 0 }));
    });
    socket.on('message', (data) => {
      const frame = handleWsFrame(index, data, events);
      if (seen.length < 10) seen.push(frame.type);
      // Cursor 0 is answered with a snapshot; a pull from a later cursor streams pages until hasMore is false.
      if (frame.type === 'sync_reset' || (frame.type === 'changes' && frame.hasMore === false)) {
        clearTimeout(timer);
        resolve(wrapWs(socket));
      }
    });
    socket.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`client ${index}: closed with ${code} (saw ${seen.join(', ')})`));
    });
    socket.on('error', (error) => events.onError(index, error.message));
  });
}

function connectPlainWs(index: number, url: string, events: ClientEvents): Promise<LoadClient> {
  const query = new URLSearchParams({ u: userId(index), g: groupIdOf(index), n: firstName(index) });
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${wsUrl(url)}?${query}`, { perMessageDeflate: false });
    socket.on('open', () => resolve(wrapWs(socket)));
    socket.on('message', (data) => handleWsFrame(index, data, events));
    socket.on('error', (error) => reject(error));
  });
}

function connectSocketIo(index: number, url: string, events: ClientEvents): Promise<LoadClient> {
  const socket = io(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: CONNECT_TIMEOUT_MS,
    auth: { userId: userId(index), groupId: groupIdOf(index), firstName: firstName(index) },
  });
  socket.on('receive_group_message', (frame: { message: { id: string } }) =>
    events.onReceive(index, frame.message.id, performance.now()),
  );
  return new Promise((resolve, reject) => {
    socket.once('connect', () =>
      resolve({
        send: ({ type, ...frame }) =>
          socket.emit(type, frame, (ack: { mid: number }) => events.onAck(index, ack.mid, performance.now())),
        close: () => socket.disconnect(),
      }),
    );
    socket.once('connect_error', (error) => reject(error));
  });
}
