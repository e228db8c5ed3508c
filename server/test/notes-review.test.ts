import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import type { WebsocketProvider } from 'y-websocket';
import { NOTES, NOTES_FRAME_LIMITS, NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import {
  awarenessFrame,
  awarenessPayload,
  createGroup,
  RawNotes,
  recordUpdates,
  signUp,
  until,
  upgradeClock,
  updateFrame,
  varUint,
  type Student,
  openNotesClient,
  sleep,
} from './notes-helpers';

let server: TestServer;
let members: Student[];
let mallory: Student;
const providers: WebsocketProvider[] = [];

beforeAll(async () => {
  server = await startTestServer({ now: upgradeClock.now });
  members = [];
  for (const name of ['Ana', 'Ben', 'Cai', 'Dee', 'Eli', 'Fay']) members.push(await signUp(server, name));
  mallory = await signUp(server, 'Mallory');
});
afterEach(() => {
  for (const provider of providers.splice(0)) provider.destroy();
});
afterAll(async () => {
  await server.close();
});

const openNotes = (student: Student, groupId: string, doc?: Y.Doc) =>
  openNotesClient(server, student, groupId, providers, doc);

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heapNow = () => {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

describe('awareness with real y-websocket clients (they relay every state they see)', () => {
  it('six members edit and show presence together for a few seconds; nobody is closed', async () => {
    const groupId = await createGroup(server, members[0]!, members.slice(1));
    const clients = members.map((m) => openNotes(m, groupId));
    await until(() => clients.every((c) => c.provider.synced), 'all six to sync');
    const end = Date.now() + 3000;
    let round = 0;
    while (Date.now() < end) {
      for (const [i, c] of clients.entries()) {
        c.text.insert(c.text.length, `${i}:${round} `);
        c.provider.awareness.setLocalStateField('cursor', { index: c.text.length, round });
      }
      round++;
      await sleep(100);
    }
    await until(
      () => clients.every((c) => c.text.toString() === clients[0]!.text.toString()),
      'every text to converge',
    );
    await until(
      () => clients.every((c) => c.provider.awareness.getStates().size === clients.length),
      'everyone to see six people present',
    );
    for (const c of clients) {
      expect(c.closes).toEqual([]);
      expect(c.provider.wsconnected).toBe(true);
    }
  }, 20_000);

  it('one member reconnects with a new client id five times; the other is never closed', async () => {
    const groupId = await createGroup(server, members[0]!, [members[1]!]);
    const stays = openNotes(members[0]!, groupId);
    await until(() => stays.provider.synced, 'the member who stays to sync');
    for (let i = 0; i < 5; i++) {
      const visit = openNotes(members[1]!, groupId);
      await until(() => visit.provider.synced, 'the visitor to sync');
      // A state at clock 0 (the default `{}`) is never applied by y-protocols; setting a field makes it 1.
      visit.provider.awareness.setLocalStateField('user', { name: `Ben ${i}` });
      visit.text.insert(0, `visit ${i} `);
      await until(() => stays.provider.awareness.getStates().has(visit.doc.clientID), 'presence');
      await until(() => stays.text.toString().startsWith(`visit ${i} `), 'the edit to arrive');
      visit.provider.destroy();
      await until(() => !stays.provider.awareness.getStates().has(visit.doc.clientID), 'the leave');
    }
    await sleep(300);
    expect(stays.closes).toEqual([]);
    expect(stays.provider.wsconnected).toBe(true);
  }, 20_000);

  it('a relayed state with a higher clock cannot overwrite another member’s presence', async () => {
    const groupId = await createGroup(server, members[0]!, [members[1]!, mallory]);
    const ana = openNotes(members[0]!, groupId);
    ana.provider.awareness.setLocalStateField('user', { name: 'Ana' });
    const ben = openNotes(members[1]!, groupId);
    await until(() => ana.provider.synced && ben.provider.synced, 'both to sync');
    const anaId = ana.doc.clientID;
    await until(() => ben.provider.awareness.getStates().get(anaId)?.user?.name === 'Ana', 'Ben sees Ana');

    const raw = await RawNotes.open(server, mallory, groupId);
    const forged = [{ client: anaId, clock: 1000, state: { user: { name: 'Mallory as Ana' } } }];
    await raw.send(awarenessFrame(awarenessPayload(forged)));
    await raw.send(awarenessFrame(awarenessPayload([{ client: anaId, clock: 1001, state: null }])));
    await raw.roundTrip();
    await sleep(200);
    expect(ben.provider.awareness.getStates().get(anaId)).toMatchObject({ user: { name: 'Ana' } });
    raw.close();
  });
});

/** One client block per id, each holding a single GC struct: `01 <client> 00 00 01`. */
function gcFlood(firstClient: number, blocks: number): Uint8Array {
  const bytes = [...varUint(blocks)];
  for (let i = 0; i < blocks; i++) bytes.push(1, ...varUint(firstClient + i), 0, 0, 1);
  bytes.push(0); // empty delete set
  return Uint8Array.from(bytes);
}

/** The same shape with deleted content instead of GC: what a client could send to get past a GC rule. */
function deletedFlood(firstClient: number, blocks: number): Uint8Array {
  const bytes = [...varUint(blocks)];
  const name = [...Buffer.from(NOTES.textName)];
  for (let i = 0; i < blocks; i++) {
    bytes.push(1, ...varUint(firstClient + i), 0, 0x01, 1, name.length, ...name, 1);
  }
  bytes.push(0);
  return Uint8Array.from(bytes);
}

describe('client-block floods', () => {
  it('refuses the 10,000-GC-struct frame before applying it; heap stays within a small multiple; others edit', async () => {
    const groupId = await createGroup(server, mallory, members.slice(0, 2));
    const frame = updateFrame(gcFlood(1_000_000, 10_000));
    const before = heapNow();
    const codes: (number | null)[] = [];
    for (let i = 0; i < 17; i++) {
      const raw = await RawNotes.open(server, mallory, groupId);
      await raw.send(frame);
      await raw.roundTrip().catch(() => undefined);
      codes.push(raw.closeCode);
      raw.close();
    }
    const growth = heapNow() - before;
    expect(codes.every((code) => code !== null && code >= 4400 && code < 4600)).toBe(true);
    expect(growth).toBeLessThan(4 * frame.byteLength * 17);

    const a = openNotes(members[0]!, groupId);
    const b = openNotes(members[1]!, groupId);
    await until(() => a.provider.synced && b.provider.synced, 'both to sync');
    expect(a.doc.store.clients.size).toBeLessThan(100);
    a.text.insert(0, 'still ours');
    await until(() => b.text.toString() === 'still ours', 'Ben to see Ana’s edit');
  }, 30_000);

  it('bounds new client ids per frame and per member, so deleted-content floods cannot freeze the notes', async () => {
    const groupId = await createGroup(server, mallory, members.slice(0, 2));
    const whole = await RawNotes.open(server, mallory, groupId);
    await whole.send(updateFrame(deletedFlood(2_000_000, 4_000)));
    expect(await whole.closed()).not.toBeNull();

    // Small frames, each within the per-frame bound, until the member's budget of new ids runs out.
    let next = 3_000_000;
    let refused: number | null = null;
    for (let conn = 0; conn < 30 && refused === null; conn++) {
      const raw = await RawNotes.open(server, mallory, groupId);
      for (let f = 0; f < 20 && raw.closeCode === null; f++) {
        await raw.send(updateFrame(deletedFlood(next, NOTES_FRAME_LIMITS.maxNewClientsPerFrame)));
        next += NOTES_FRAME_LIMITS.maxNewClientsPerFrame;
        await raw.roundTrip().catch(() => undefined);
      }
      refused = raw.closeCode;
      raw.close();
    }
    expect(refused).toBe(NOTES.closeRateLimited);

    const a = openNotes(members[0]!, groupId);
    const b = openNotes(members[1]!, groupId);
    await until(() => a.provider.synced && b.provider.synced, 'both to sync');
    expect(a.doc.store.clients.size).toBeLessThanOrEqual(NOTES_FRAME_LIMITS.newClientsPerMember.burst + 2);
    a.text.insert(0, 'edit after the flood');
    await until(() => b.text.toString().startsWith('edit after the flood'), 'Ben to see it');
    b.text.insert(0, 'and back ');
    await until(() => a.text.toString().startsWith('and back '), 'Ana to see Ben’s');
    expect(Y.encodeStateAsUpdate(a.doc).byteLength).toBeLessThanOrEqual(NOTES.maxDocBytes);
  }, 30_000);

  it('rate-limits /notes upgrades per member (429), other members unaffected', async () => {
    const groupId = await createGroup(server, mallory, [members[0]!]);
    const url = `${server.url.replace(/^http/, 'ws')}/notes/${groupId}`;
    const status = (student: Student) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(url, [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + student.token]);
        socket.on('open', () => {
          socket.terminate();
          resolve(101);
        });
        socket.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          socket.terminate();
        });
        socket.on('error', reject);
      });
    const seen: number[] = [];
    for (let i = 0; i < NOTES_FRAME_LIMITS.upgrades.burst + 3; i++) seen.push(await status(mallory));
    expect(seen.slice(0, NOTES_FRAME_LIMITS.upgrades.burst)).toEqual(
      Array(NOTES_FRAME_LIMITS.upgrades.burst).fill(101),
    );
    expect(seen.at(-1)).toBe(429);
    expect(await status(members[0]!)).toBe(101);
    upgradeClock.tick(60_000);
    expect(await status(mallory)).toBe(101);
  });
});

describe('frames larger than one WebSocket frame of chat', () => {
  it('syncs a client that edited 75 KB offline when it reconnects', async () => {
    const groupId = await createGroup(server, members[0]!, [members[1]!]);
    const offline = new Y.Doc();
    const text = offline.getText(NOTES.textName);
    // Many separate edits, as typed: one struct each, 75 KB in all.
    for (let i = 0; i < 1500; i++) text.insert(Math.floor(text.length / 2), `line ${i} ${'x'.repeat(40)}\n`);
    expect(Y.encodeStateAsUpdate(offline).byteLength).toBeGreaterThan(75_000);
    const other = openNotes(members[1]!, groupId);
    await until(() => other.provider.synced, 'the other member to sync');
    const back = openNotes(members[0]!, groupId, offline);
    await until(
      () => other.text.length === text.length,
      'the offline edits to reach the other member',
      10_000,
    );
    expect(other.text.toString()).toBe(text.toString());
    expect(back.closes).toEqual([]);
  });

  it('refuses an 80 KB plain update with a 44xx code and a reason, not 1009', async () => {
    const groupId = await createGroup(server, members[0]!, [mallory]);
    const [update] = recordUpdates(new Y.Doc(), (t) => t.insert(0, 'y'.repeat(80_000)));
    const raw = await RawNotes.open(server, mallory, groupId);
    let reason = '';
    raw.socket.on('close', (_code, why) => (reason = why.toString()));
    await raw.send(updateFrame(update!));
    expect(await raw.closed()).toBe(NOTES.closeTooLarge);
    expect(reason).toMatch(/too large/);
  });

  it('still closes a /ws frame over 64 KiB with 1009', async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const code = new Promise<number>((resolve) => socket.once('close', (c) => resolve(c)));
    socket.send('x'.repeat(64 * 1024 + 1));
    expect(await code).toBe(1009);
  });
});
