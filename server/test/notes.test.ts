import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { WebsocketProvider } from 'y-websocket';
import {
  CLOSE_CODES,
  NOTES,
  NOTES_SUBPROTOCOL,
  NOTES_TOKEN_PREFIX,
  REALTIME_ERRORS,
  SERVER_MSG,
} from '@campus/protocol';
import WebSocket from 'ws';
import {
  createGroup,
  openNotesClient,
  recordUpdates,
  signUp,
  syncStep1Frame,
  until,
  upgradeStatus,
  type Student,
} from './notes-helpers';
import { execSql, rowOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
let dataDir: string;
const providers: WebsocketProvider[] = [];

beforeAll(async () => {
  server = await startTestServer();
  dataDir = server.dataDir;
});
afterEach(() => {
  for (const provider of providers.splice(0)) provider.destroy();
});
afterAll(async () => {
  await server.close();
});

const notesUrl = () => `${server.url.replace(/^http/, 'ws')}/notes`;

const openNotes = (student: Student, groupId: string, doc?: Y.Doc) =>
  openNotesClient(server, student, groupId, providers, doc);

/** The group's stored rows (portable SQL: this file runs on SQLite and PostgreSQL). */
const storedRows = async (groupId: string) =>
  (
    await rowOf<{ n: number }>(
      server,
      'SELECT count(*) AS n FROM group_notes_updates WHERE group_id = ?',
      groupId,
    )
  )?.n;

describe('group notes over /notes/:groupId', () => {
  let ana: Student;
  let ben: Student;
  let eve: Student;
  let groupId: string;

  beforeAll(async () => {
    ana = await signUp(server, 'Ana');
    ben = await signUp(server, 'Ben');
    eve = await signUp(server, 'Eve');
    groupId = await createGroup(server, ana, [ben]);
  });

  it('two members edit the same notes and each sees the other’s text', async () => {
    const a = openNotes(ana, groupId);
    const b = openNotes(ben, groupId);
    await until(() => a.provider.synced && b.provider.synced, 'both clients to sync');

    a.text.insert(0, 'Exam on Friday. ');
    await until(() => b.text.toString() === 'Exam on Friday. ', 'Ben to see Ana’s line');
    b.text.insert(b.text.length, 'Bring calculators.');
    await until(() => a.text.toString() === 'Exam on Friday. Bring calculators.', 'Ana to see Ben’s line');
    expect(b.text.toString()).toBe(a.text.toString());
  });

  it('keeps the notes in the database across a server restart, compacted to one row', async () => {
    await until(async () => (await storedRows(groupId)) === 1, 'the last close to compact the rows');
    await server.stop();
    server = await startTestServer({ config: { dataDir } });

    const again = openNotes(ben, groupId);
    await until(() => again.provider.synced, 'Ben to sync after the restart');
    expect(again.text.toString()).toBe('Exam on Friday. Bring calculators.');
  });

  it('refuses a non-member with 403 and no socket, and a missing or bad token with 401', async () => {
    const url = `${notesUrl()}/${groupId}`;
    expect(await upgradeStatus(url, [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + eve.token])).toBe(403);
    expect(await upgradeStatus(url, [NOTES_SUBPROTOCOL])).toBe(401);
    expect(await upgradeStatus(url, [NOTES_SUBPROTOCOL, `${NOTES_TOKEN_PREFIX}${'a'.repeat(32)}`])).toBe(401);
    expect(
      await upgradeStatus(`${notesUrl()}/${randomUUID()}`, [
        NOTES_SUBPROTOCOL,
        NOTES_TOKEN_PREFIX + ana.token,
      ]),
    ).toBe(403);
    // A member's own upgrade works, so the refusals above are about who asks, not the request's shape.
    expect(await upgradeStatus(url, [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + ana.token])).toBe(101);

    const plain = await fetch(`${server.url}/notes/${groupId}`, {
      headers: { 'sec-websocket-protocol': `${NOTES_SUBPROTOCOL}, ${NOTES_TOKEN_PREFIX}${eve.token}` },
    });
    expect(plain.status).toBe(403);
    expect(await plain.json()).toEqual({ error: REALTIME_ERRORS.notGroupMember });
  });

  it('does not take the token from the query string', async () => {
    const url = `${notesUrl()}/${groupId}?token=${ana.token}`;
    expect(await upgradeStatus(url, [NOTES_SUBPROTOCOL])).toBe(401);
    const plain = await fetch(`${server.url}/notes/${groupId}?token=${ana.token}`);
    expect(await plain.json()).toEqual({ error: SERVER_MSG.unauthorized });
  });

  it('closes the socket of a member removed from the group at their next edit', async () => {
    const other = await createGroup(server, ana, [ben]);
    const b = openNotes(ben, other);
    const closed = new Promise<number>((resolve) => b.provider.on('closed', (event) => resolve(event.code)));
    await until(() => b.provider.synced, 'Ben to sync');
    await execSql(server, 'DELETE FROM group_members WHERE group_id = ? AND user_id = ?', other, ben.userId);
    b.text.insert(0, 'sneaky edit');
    expect(await closed).toBe(CLOSE_CODES.forbidden);
    const a = openNotes(ana, other);
    await until(() => a.provider.synced, 'Ana to sync');
    expect(a.text.toString()).toBe('');
  });

  it('a removed member who sends nothing gets no edit made after the removal, and is closed at the first', async () => {
    const other = await createGroup(server, ana, [ben]);
    const a = openNotes(ana, other);
    const b = openNotes(ben, other);
    const closed = new Promise<number>((resolve) => b.provider.on('closed', (event) => resolve(event.code)));
    await until(() => a.provider.synced && b.provider.synced, 'both to sync');
    a.text.insert(0, 'before ');
    await until(() => b.text.toString() === 'before ', 'Ben to see the edit made while a member');
    // Each side's presence has gone out; from here Ben's client stays silent (its renewal is 15 s away).
    await new Promise((resolve) => setTimeout(resolve, 200));
    await execSql(server, 'DELETE FROM group_members WHERE group_id = ? AND user_id = ?', other, ben.userId);
    a.text.insert(a.text.length, 'secret');
    expect(await closed).toBe(CLOSE_CODES.forbidden);
    expect(b.text.toString()).toBe('before ');
  });

  it('stops a document from growing past the size limit', async () => {
    const big = await createGroup(server, ana, []);
    const a = openNotes(ana, big);
    const closed = new Promise<number>((resolve) => a.provider.on('closed', (event) => resolve(event.code)));
    await until(() => a.provider.synced, 'Ana to sync');
    const chunk = 'x'.repeat(60_000);
    for (let i = 0; i * chunk.length <= NOTES.maxDocBytes; i++) {
      a.text.insert(a.text.length, chunk);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await closed).toBe(NOTES.closeTooLarge);

    const fresh = openNotes(ana, big);
    await until(() => fresh.provider.synced, 'a fresh client to sync');
    expect(fresh.text.length).toBeGreaterThan(0);
    expect(Y.encodeStateAsUpdate(fresh.doc).byteLength).toBeLessThanOrEqual(NOTES.maxDocBytes);
  });

  it('answers a sync asked before the server spoke with every stored row, never a part of them', async () => {
    const groupId = await createGroup(server, ana, [ben]);
    const typed = new Y.Doc();
    const updates = recordUpdates(typed, (text) => {
      for (let i = 0; i < 40; i++) text.insert(text.length, `line ${i}\n`);
    });
    for (const update of updates) {
      await execSql(
        server,
        'INSERT INTO group_notes_updates (group_id, update_data, created_ms) VALUES (?, ?, ?)',
        groupId,
        Buffer.from(update),
        Date.now(),
      );
    }
    // Sent the moment the socket opens, while the server may still be reading the rows.
    const reply = await syncReplyAtOpen(groupId, ben);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, reply);
    expect(doc.getText(NOTES.textName).toString()).toBe(typed.getText(NOTES.textName).toString());
  });
});

/** The update of the server's answer (sync step 2) to a sync step 1 sent as soon as the socket opened. */
function syncReplyAtOpen(groupId: string, student: Student): Promise<Uint8Array> {
  const socket = new WebSocket(`${notesUrl()}/${groupId}`, [
    NOTES_SUBPROTOCOL,
    NOTES_TOKEN_PREFIX + student.token,
  ]);
  return new Promise<Uint8Array>((resolve, reject) => {
    socket.on('open', () => socket.send(syncStep1Frame()));
    socket.on('message', (data: Buffer) => {
      // Message sync (0), sub-type step 2 (1), then the update as a var-length byte string.
      if (data[0] !== 0 || data[1] !== 1) return;
      const [length, at] = readVarUint(data, 2);
      resolve(new Uint8Array(data.subarray(at, at + length)));
      socket.close();
    });
    socket.on('close', (code) => reject(new Error(`closed with ${code} before the sync answer`)));
    socket.on('error', reject);
  });
}

/** lib0 readVarUint: the number at `at` and where the bytes after it start. */
function readVarUint(bytes: Uint8Array, at: number): [number, number] {
  let n = 0;
  for (let shift = 1; ; shift *= 128) {
    const byte = bytes[at++]!;
    n += (byte & 0x7f) * shift;
    if (byte < 0x80) return [n, at];
  }
}
