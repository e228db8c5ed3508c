import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import { NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';

/** Why a frame is refused: the socket is closed with this code and reason, and the frame is not applied. */
export interface FrameRefusal {
  code: number;
  reason: string;
}

/**
 * What happens to a frame: refused (the socket closes), delivered to Yjs (as received, or as `frame`: an
 * awareness message with other members' relayed entries taken out; once `wait` has settled, if set), or
 * dropped quietly (nothing in it to apply).
 */
export type FrameVerdict =
  | ({ kind: 'refuse' } & FrameRefusal)
  | { kind: 'deliver'; frame?: Uint8Array; wait?: Promise<void> }
  | { kind: 'drop' };

/** The checks around each incoming frame. */
export interface FrameGate {
  /** As a frame arrives (null for a text frame), before it is queued: the connection's rates. */
  receive(frame: Uint8Array | null): FrameRefusal | null;
  /**
   * Before the frames queued so far are admitted: the sender's authorization, read after they arrived. A
   * promise when the answer needs the database asynchronously; the frames wait for it, in order.
   */
  prepare(): FrameRefusal | null | Promise<FrameRefusal | null>;
  /** Before Yjs sees the frame. */
  admit(frame: Uint8Array): FrameVerdict;
  /** Right after Yjs applied a delivered frame (setupWSConnection's listener is synchronous). */
  settle(): FrameRefusal | null;
  /** The socket closed. */
  closed(): void;
  /**
   * Before frames go out to this socket (edits and presence): the receiver's authorization, read after they
   * were made (a promise when the answer needs the database asynchronously; the frames wait for it, in order).
   */
  mayReceive(): FrameRefusal | null | Promise<FrameRefusal | null>;
}

/** y-protocols' awareness message type: the first byte of every awareness frame the server sends. */
const MESSAGE_AWARENESS = 1;
/**
 * Bytes of frames waiting for one receiver's check at most (only while the database answers slowly; on
 * PostgreSQL every check is asynchronous). Past it the oldest awareness frames are dropped (presence is
 * ephemeral, and clients renew their states every 15 s); an edit is never dropped: the socket is closed
 * instead, and the client syncs again as it returns. Room for a whole document's sync answer (as large as
 * the document may grow, its deletion reserve included) and a few edits behind it: a cap below that would
 * close every socket opening the largest notes, for good.
 */
const MAX_WAITING_OUT_BYTES =
  NOTES.maxDocBytes + NOTES_FRAME_LIMITS.deleteReserveBytes + 4 * NOTES_FRAME_LIMITS.maxFrameBytes;

interface Outgoing {
  /** Frames are numbered as they come: a check covers those numbered before it started. */
  seq: number;
  data: Uint8Array;
  /** An awareness frame: may be dropped when too many wait. */
  presence: boolean;
  options: object;
  callback: (err?: Error) => void;
}

interface Queued {
  bytes: Uint8Array;
  /** As `ws` delivered it: handed to Yjs unchanged when the gate keeps the frame whole. */
  data: ArrayBuffer | Buffer | Buffer[];
}

/**
 * The part of a `ws` socket that @y/websocket-server's setupWSConnection uses, with every incoming frame
 * passed through the gate first. Closing the raw socket from an ordinary listener would not stop the Yjs
 * listener registered beside it from applying the frame; here a refused frame never reaches it, and nothing
 * after a refusal does either (ws keeps delivering frames that arrive while the close handshake runs).
 *
 * Frames are queued from the first one on and handed over in order: none before `start()` (the document is
 * still loading), none while the gate's `prepare` or a verdict's `wait` is pending. The queue is bounded by
 * the gate's rates, checked as each frame arrives. A frame still queued when the socket stops being open
 * (closed by the client, by a refusal, or by a revoked session) is dropped: it is never applied after that.
 *
 * Every frame going out (edits and other members' presence, from this node or relayed from another) passes
 * the gate's `mayReceive` first, like incoming frames, in order: a member removed from the group gets
 * nothing made after the removal, even while its own client sends nothing that would be refused.
 */
export class GuardedSocket extends EventEmitter {
  private refused = false;
  private started = false;
  private busy = false;
  private readonly queue: Queued[] = [];
  /** Queued frames (from the front) covered by the last `prepare`. */
  private prepared = 0;
  /** Frames for this socket, waiting for `mayReceive`. */
  private readonly waitingOut: Outgoing[] = [];
  private waitingOutBytes = 0;
  private lastOutSeq = 0;
  private checkingOut = false;

  constructor(
    private readonly raw: WebSocket,
    private readonly gate: FrameGate,
  ) {
    super();
    // What setupWSConnection would set, set now: frames may arrive before it runs.
    raw.binaryType = 'arraybuffer';
    raw.on('message', (data, isBinary) => {
      if (this.refused) return;
      // Yjs speaks binary only; with binaryType 'arraybuffer' data is an ArrayBuffer.
      const bytes = isBinary ? toBytes(data) : null;
      const refusal = gate.receive(bytes);
      if (refusal) return this.refuse(refusal);
      if (!bytes) return;
      this.queue.push({ bytes, data });
      this.pump();
    });
    raw.on('close', () => {
      this.queue.length = 0;
      gate.closed();
      this.emit('close');
    });
    raw.on('pong', () => this.emit('pong'));
  }

  /** setupWSConnection listens now: frames go to it from here on. */
  start(): void {
    this.started = true;
    this.pump();
  }

  private pump(): void {
    while (this.started && !this.busy && !this.refused && this.queue.length > 0) {
      if (this.raw.readyState !== WebSocket.OPEN) {
        this.queue.length = 0;
        return;
      }
      if (this.prepared === 0) {
        const covered = this.queue.length;
        const prepared = this.gate.prepare();
        if (prepared instanceof Promise) {
          this.busy = true;
          void prepared.then((refusal) => {
            this.busy = false;
            if (this.refused) return;
            if (refusal) return this.refuse(refusal);
            this.prepared = covered;
            this.pump();
          });
          return;
        }
        if (prepared) return this.refuse(prepared);
        this.prepared = covered;
      }
      this.prepared -= 1;
      const queued = this.queue.shift()!;
      const verdict = this.gate.admit(queued.bytes);
      if (verdict.kind === 'refuse') return this.refuse(verdict);
      if (verdict.kind === 'drop') continue;
      const frame = verdict.frame ?? queued.data;
      if (verdict.wait) {
        this.busy = true;
        void verdict.wait.then(() => {
          this.busy = false;
          if (this.refused || this.raw.readyState !== WebSocket.OPEN) return;
          this.deliver(frame);
          this.pump();
        });
        return;
      }
      this.deliver(frame);
    }
  }

  private deliver(frame: Uint8Array | ArrayBuffer | Buffer | Buffer[]): void {
    this.emit('message', frame);
    const late = this.gate.settle();
    if (late) this.refuse(late);
  }

  private refuse(refusal: FrameRefusal): void {
    this.refused = true;
    this.queue.length = 0;
    this.waitingOut.length = 0;
    this.waitingOutBytes = 0;
    this.raw.close(refusal.code, refusal.reason);
  }

  set binaryType(type: 'arraybuffer' | 'nodebuffer') {
    this.raw.binaryType = type;
  }

  get readyState(): number {
    return this.raw.readyState;
  }

  /** Frames go out in order, once the gate let this receiver have them. */
  send(data: Uint8Array, options: object, callback: (err?: Error) => void): void {
    // Closing (the broadcast of its own removal reaches it too): nothing to check, nothing to send.
    if (this.refused || this.raw.readyState !== WebSocket.OPEN) return;
    this.waitingOut.push({
      seq: ++this.lastOutSeq,
      data,
      presence: data[0] === MESSAGE_AWARENESS,
      options,
      callback,
    });
    this.waitingOutBytes += data.byteLength;
    while (this.waitingOutBytes > MAX_WAITING_OUT_BYTES && this.waitingOut.length > 1) {
      const oldest = this.waitingOut[0]!;
      if (!oldest.presence) return this.refuse({ code: NOTES.closeRateLimited, reason: 'receiver too slow' });
      this.waitingOutBytes -= this.waitingOut.shift()!.data.byteLength;
    }
    this.checkOut();
  }

  private checkOut(): void {
    if (this.checkingOut || this.waitingOut.length === 0) return;
    const covered = this.lastOutSeq;
    const verdict = this.gate.mayReceive();
    if (!(verdict instanceof Promise)) return this.sendChecked(covered, verdict);
    this.checkingOut = true;
    void verdict.then((refusal) => {
      this.checkingOut = false;
      this.sendChecked(covered, refusal);
      this.checkOut();
    });
  }

  /** Sends (or, refused, drops) the waiting frames numbered up to `covered`. */
  private sendChecked(covered: number, refusal: FrameRefusal | null): void {
    const frames: Outgoing[] = [];
    while (this.waitingOut.length > 0 && this.waitingOut[0]!.seq <= covered) {
      const frame = this.waitingOut.shift()!;
      this.waitingOutBytes -= frame.data.byteLength;
      frames.push(frame);
    }
    if (this.refused || this.raw.readyState !== WebSocket.OPEN) return;
    if (refusal) return this.refuse(refusal);
    for (const { data, options, callback } of frames) this.raw.send(data, options, callback);
  }

  ping(): void {
    this.raw.ping();
  }

  close(code?: number, reason?: string): void {
    this.raw.close(code, reason);
  }
}

function toBytes(data: ArrayBuffer | Buffer | Buffer[]): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return Array.isArray(data) ? Buffer.concat(data) : data;
}
