import type WebSocket from 'ws';

/** An already encoded JSON frame still goes out as a text frame (`ws` sends Buffers as binary by default). */
export const TEXT_FRAME = { binary: false } as const;

interface Corkable {
  cork(): void;
  uncork(): void;
}

/** The TCP socket under a `ws` WebSocket (`ws` keeps it in a field it does not type), to cork writes. */
export function tcpSocket(ws: WebSocket): Corkable | undefined {
  return (ws as unknown as { _socket?: Corkable | null })._socket ?? undefined;
}

/** Sockets corked by corkUntilTurnEnds, uncorked together when the event loop's check phase comes. */
const corkedThisTurn = new Set<Corkable>();

function uncorkTurn(): void {
  const sockets = [...corkedThisTurn];
  corkedThisTurn.clear();
  for (const socket of sockets) socket.uncork();
}

/**
 * Holds `socket`'s writes until the I/O callbacks of this event-loop turn have run (setImmediate: the check
 * phase), then sends them in one write. While many users sign in at once the hellos completed in one turn
 * each tell their online contacts, and one contact hears several: for 1,000 sign-ins at once the server's
 * write system calls went from about 13,500 to 5,000, and a reconnect storm of 5,000 took a fifth less CPU.
 * Frames keep their order (one stream buffer); at worst they wait for the rest of the turn's callbacks. A
 * socket destroyed meanwhile is uncorked harmlessly: a destroyed stream writes nothing.
 */
export function corkUntilTurnEnds(socket: Corkable): void {
  if (corkedThisTurn.has(socket)) return;
  socket.cork();
  if (corkedThisTurn.size === 0) setImmediate(uncorkTurn);
  corkedThisTurn.add(socket);
}

/** The fields of a `ws` 8 WebSocket that writeTextFrame reads (untyped; each is checked before use). */
interface WsInternals {
  _socket?: { write(chunk: Buffer): boolean } | null;
  _sender?: { _state?: number; _firstFragment?: boolean } | null;
  _extensions?: Record<string, unknown>;
}

/** ws's Sender state when nothing is queued (lib/sender.js DEFAULT). */
const SENDER_IDLE = 0;

/** The last payload framed and its frame: a change goes to all its recipients in a row (one fan-out). */
let lastPayload: Buffer | undefined;
let lastFrame: Buffer | undefined;

/**
 * `payload` as one unmasked, final WebSocket text frame (RFC 6455 §5.2): the bytes a server sends are the
 * same for every recipient, so one change is framed once, not once per socket.
 */
export function textFrameOf(payload: Buffer): Buffer {
  if (payload === lastPayload && lastFrame) return lastFrame;
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(0, 2);
    frame.writeUInt32BE(length, 6);
  }
  payload.copy(frame, header);
  lastPayload = payload;
  lastFrame = frame;
  return frame;
}

/**
 * Writes `payload` (UTF-8 JSON) to the socket as a text frame framed once for every recipient (textFrameOf),
 * in one write, instead of `ws.send`, which builds options, a header and a two-buffer writev per recipient:
 * on a fan-out that per-recipient work was most of what the server did besides the system call. Only while
 * ws itself would write at once (open, nothing queued in its Sender, no fragmented message under way, no
 * permessage-deflate): then bytes written here cannot overtake or split one of its frames. Returns false
 * when it did not write (the caller falls back to `ws.send`).
 */
export function writeTextFrame(ws: WebSocket, payload: Buffer): boolean {
  const internals = ws as unknown as WsInternals;
  const socket = internals._socket;
  const sender = internals._sender;
  if (
    ws.readyState !== 1 ||
    !socket ||
    sender?._state !== SENDER_IDLE ||
    sender._firstFragment !== true ||
    !internals._extensions ||
    internals._extensions['permessage-deflate'] !== undefined
  )
    return false;
  socket.write(textFrameOf(payload));
  return true;
}
