import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { NOTES, NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX } from '@campus/protocol';
import { sql } from '../src/realtime/transaction';
import type { TestServer } from './support/test-server';
import { until } from './support/until';
import { setDocumentStatus } from './support/verify-student';

export { until };

export interface Student {
  token: string;
  userId: string;
}

/**
 * Signs a student up through the real auth routes, reading the code from the dev mailbox, and verifies
 * them (as an admin would), so the access policy lets them edit the notes.
 */
export async function signUp(server: TestServer, firstName: string): Promise<Student> {
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@uni.edu`;
  const signup = await server.post('/api/auth/signup', {
    firstName,
    lastName: 'Test',
    email,
    password: 'secret12',
    phoneNumber: '',
  });
  expect(signup.status).toBeLessThan(300);
  const mail = server.deps.devMailbox?.list().find((m) => m.to === email);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  const res = await server.post('/api/auth/verify-otp', { email, otpCode: code });
  expect(res.status).toBe(201);
  const userId = (res.body.user as { id: string }).id;
  await setDocumentStatus(server, userId);
  return { token: res.body.token as string, userId };
}

const insertGroup = sql('INSERT INTO groups (id, name, created_by, created_at) VALUES (?, ?, ?, ?)');
const insertMember = sql('INSERT INTO group_members (group_id, user_id, joined_at) VALUES (?, ?, ?)');

/** The group rows only (the notes need nothing else), in one commit, on SQLite and PostgreSQL alike. */
export async function createGroup(
  server: Pick<TestServer, 'deps'>,
  owner: Student,
  members: Student[] = [],
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await server.deps.transactor.commit(async (tx) => {
    await tx.run(insertGroup, id, 'Study group', owner.userId, now);
    for (const member of [owner, ...members]) await tx.run(insertMember, id, member.userId, now);
  });
  return id;
}

/**
 * The server's clock in the notes tests: real time plus a skew the tests move forward, so the per-member
 * upgrade rate (NOTES_FRAME_LIMITS.upgrades) refills between the many connections a hostile test opens.
 */
export const upgradeClock = {
  skewMs: 0,
  now: () => Date.now() + upgradeClock.skewMs,
  /** One upgrade's worth of refill (3 s at 20 a minute), or `ms`. */
  tick(ms = 3_000) {
    upgradeClock.skewMs += ms;
  },
};

/**
 * A member's raw notes socket, speaking bytes directly as an attacker would. Remembers the close code, and
 * can wait for the server's answer to a sync step 1 (proof that every frame sent before it was processed).
 */
export class RawNotes {
  closeCode: number | null = null;
  private readonly replies: Uint8Array[] = [];
  private waiters: (() => void)[] = [];
  /** The server's own sync step 1 on open: asking with it gets a small answer, not the whole document. */
  private serverStep1: Uint8Array | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const reply = new Uint8Array(data);
      if (reply[0] === 0 && reply[1] === 0) this.serverStep1 ??= reply;
      this.replies.push(reply);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(server: TestServer, student: Student, groupId: string): Promise<RawNotes> {
    upgradeClock.tick();
    const url = `${server.url.replace(/^http/, 'ws')}/notes/${groupId}`;
    const socket = new WebSocket(url, [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + student.token]);
    const raw = new RawNotes(socket);
    // Ready once the server's sync step 1 arrived: the connection is set up on the server too.
    return new Promise((resolve, reject) => {
      socket.once('message', () => resolve(raw));
      socket.once('error', reject);
    });
  }

  send(frame: Uint8Array): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState !== WebSocket.OPEN) return resolve();
      this.socket.send(frame, () => resolve());
    });
  }

  /** Resolves with the close code, or null if the socket is still open after `ms`. */
  async closed(ms = 2000): Promise<number | null> {
    await until(() => this.closeCode !== null, 'close', ms).catch(() => undefined);
    return this.closeCode;
  }

  /** Sends a sync step 1 and waits for the step 2 reply (or the close): everything before it was handled. */
  async roundTrip(ms = 5000): Promise<void> {
    const before = this.replies.length;
    await this.send(this.serverStep1 ?? syncStep1Frame());
    const end = Date.now() + ms;
    while (this.closeCode === null && !this.replies.slice(before).some((r) => r[0] === 0 && r[1] === 1)) {
      if (Date.now() > end) throw new Error('no sync step 2 reply');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close(): void {
    this.socket.terminate();
  }
}

/** lib0 writeVarUint. */
export function varUint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

const withLength = (bytes: Uint8Array) => [...varUint(bytes.byteLength), ...bytes];

/** y-protocols: message sync (0), sub-type update (2), the update as a var-length byte string. */
export const updateFrame = (update: Uint8Array) => Uint8Array.from([0, 2, ...withLength(update)]);
export const syncStep1Frame = (doc = new Y.Doc()) =>
  Uint8Array.from([0, 0, ...withLength(Y.encodeStateVector(doc))]);
export const awarenessFrame = (payload: Uint8Array) => Uint8Array.from([1, ...withLength(payload)]);

/** An awareness update (y-protocols encodeAwarenessUpdate) announcing `state` for each client id. */
export function awarenessPayload(entries: { client: number; clock: number; state: unknown }[]): Uint8Array {
  const bytes: number[] = [...varUint(entries.length)];
  for (const { client, clock, state } of entries) {
    bytes.push(...varUint(client), ...varUint(clock), ...withLength(Buffer.from(JSON.stringify(state))));
  }
  return Uint8Array.from(bytes);
}

/** Every update a document emits while `edit` runs, in order. */
export function recordUpdates(doc: Y.Doc, edit: (text: Y.Text) => void): Uint8Array[] {
  const updates: Uint8Array[] = [];
  const onUpdate = (update: Uint8Array) => updates.push(update);
  doc.on('update', onUpdate);
  edit(doc.getText(NOTES.textName));
  doc.off('update', onUpdate);
  return updates;
}

/** A small deterministic PRNG (mulberry32), so a failing fuzz run can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Real updates of edited notes: typing, deleting, formatting, embeds, and two concurrent writers. */
export function realUpdates(random: () => number, docs = 6): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let d = 0; d < docs; d++) {
    const a = new Y.Doc();
    const b = new Y.Doc();
    const edits = (doc: Y.Doc) =>
      recordUpdates(doc, (text) => {
        for (let i = 0; i < 12; i++) {
          const at = Math.floor(random() * (text.length + 1));
          const roll = random();
          if (roll < 0.5) text.insert(at, `word${i} ünïcödé 🙂 `);
          else if (roll < 0.7 && text.length > 3) text.delete(Math.min(at, text.length - 2), 2);
          else if (roll < 0.8) text.format(0, Math.min(3, text.length), { bold: true });
          else if (roll < 0.9) text.insertEmbed(at, { image: 'x.png', n: [1, 2.5, null, true] });
          else text.insert(at, 'tag', { italic: true, size: 12 });
        }
      });
    out.push(...edits(a), ...edits(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    out.push(...edits(a), Y.encodeStateAsUpdate(a), Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
  }
  return out;
}

/** One mutation of a valid frame: bit flips, truncation, varint inflation, byte insertion or a random frame. */
export function mutate(frame: Uint8Array, random: () => number): Uint8Array {
  const pick = () => Math.floor(random() * frame.length);
  const roll = random();
  if (roll < 0.3) {
    const copy = Uint8Array.from(frame);
    for (let i = 0, n = 1 + Math.floor(random() * 3); i < n; i++)
      copy[pick()]! ^= 1 << Math.floor(random() * 8);
    return copy;
  }
  if (roll < 0.45) return frame.slice(0, pick());
  if (roll < 0.65) {
    // Varint inflation: a byte becomes a longer (non-minimal or much larger) number.
    const at = pick();
    const filler = random() < 0.5 ? [0x80 | frame[at]!, 0x00] : [0xff, 0xff, 0xff, 0xff, 0x0f];
    return Uint8Array.from([...frame.slice(0, at), ...filler, ...frame.slice(at + 1)]);
  }
  if (roll < 0.8) {
    const at = pick();
    const inserted = Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * 256));
    return Uint8Array.from([...frame.slice(0, at), ...inserted, ...frame.slice(at)]);
  }
  if (roll < 0.9) {
    // The right message header on random bytes.
    const body = Uint8Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * 256));
    return Uint8Array.from([0, Math.floor(random() * 3), ...withLength(body)]);
  }
  return Uint8Array.from({ length: 1 + Math.floor(random() * 24) }, () => Math.floor(random() * 256));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries an upgrade with a plain `ws` client and reports the HTTP status, or 101 if a socket opened. */
export function upgradeStatus(url: string, protocols: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', reject);
  });
}

/** A real y-websocket client on the notes socket, as the web app opens it, with every close code it got. */
export interface NotesClient {
  doc: Y.Doc;
  text: Y.Text;
  provider: WebsocketProvider;
  closes: number[];
}

/** Opens a notes client for `student`; `providers` collects it so the suite can destroy it after each test. */
export function openNotesClient(
  server: Pick<TestServer, 'url'>,
  student: Student,
  groupId: string,
  providers: WebsocketProvider[],
  doc = new Y.Doc(),
): NotesClient {
  upgradeClock.tick();
  const provider = new WebsocketProvider(`${server.url.replace(/^http/, 'ws')}/notes`, groupId, doc, {
    protocols: [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + student.token],
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    disableBc: true,
  });
  providers.push(provider);
  const closes: number[] = [];
  provider.on('connection-close', (event) => {
    if (event) closes.push(event.code);
  });
  return { doc, text: doc.getText(NOTES.textName), provider, closes };
}
