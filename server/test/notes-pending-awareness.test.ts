import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { WebsocketProvider } from 'y-websocket';
import { NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';
import { rowOf } from './support/sql';
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
  type Student,
  openNotesClient,
} from './notes-helpers';

let server: TestServer;
let ana: Student;
let ben: Student;
let mallory: Student;
const providers: WebsocketProvider[] = [];

beforeAll(async () => {
  server = await startTestServer({ now: upgradeClock.now });
  ana = await signUp(server, 'Ana');
  ben = await signUp(server, 'Ben');
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

const storedBytes = async (groupId: string) =>
  (await rowOf<{ n: number }>(
    server,
    'SELECT coalesce(sum(length(update_data)), 0) AS n FROM group_notes_updates WHERE group_id = ?',
    groupId,
  ))!.n;

/** An update that can never apply: it builds on an edit (`first`) the server never receives. */
function orphanUpdate(size: number): Uint8Array {
  const [, orphan] = recordUpdates(new Y.Doc(), (text) => {
    text.insert(0, 'the edit that never arrives');
    text.insert(5, 'y'.repeat(size));
  });
  return orphan!;
}

describe('notes: pending structs', () => {
  it('refuses 40 updates of 50 KB with missing dependencies (4522); nothing is stored and the others keep editing', async () => {
    const groupId = await createGroup(server, mallory, [ana, ben]);
    const a = openNotes(ana, groupId);
    const b = openNotes(ben, groupId);
    await until(() => a.provider.synced && b.provider.synced, 'both members to sync');
    a.text.insert(0, 'Agenda: ');
    await until(() => b.text.toString() === 'Agenda: ', 'Ben to see the agenda');

    for (let i = 0; i < 40; i++) {
      const raw = await RawNotes.open(server, mallory, groupId);
      await raw.send(updateFrame(orphanUpdate(50_000)));
      expect(await raw.closed()).toBe(NOTES.closeUnresolved);
    }
    expect(await storedBytes(groupId)).toBeLessThan(10_000);

    b.text.insert(b.text.length, 'chapter 4 by Friday');
    await until(() => a.text.toString() === 'Agenda: chapter 4 by Friday', 'Ana to see Ben’s edit');
    const joiner = openNotes(ben, groupId);
    await until(() => joiner.provider.synced, 'a joiner to sync');
    expect(joiner.doc.store.pendingStructs).toBeNull();
    expect(joiner.text.toString()).toBe('Agenda: chapter 4 by Friday');
  });

  it('holds a small unresolved update at most pendingMaxMs, then drops it: joiners stop receiving it', async () => {
    const groupId = await createGroup(server, mallory, [ana]);
    const raw = await RawNotes.open(server, mallory, groupId);
    await raw.send(updateFrame(orphanUpdate(500)));
    await raw.roundTrip();
    expect(raw.closeCode).toBeNull();

    const early = openNotes(ana, groupId);
    await until(() => early.provider.synced, 'an early joiner to sync');
    // While it waits, Yjs hands the unresolved update to joiners: this is what the bound limits.
    expect(early.doc.store.pendingStructs).not.toBeNull();

    await new Promise((resolve) => setTimeout(resolve, NOTES_FRAME_LIMITS.pendingMaxMs + 300));
    const late = openNotes(ana, groupId);
    await until(() => late.provider.synced, 'a late joiner to sync');
    expect(late.doc.store.pendingStructs).toBeNull();
    raw.close();
  });
});

describe('notes: awareness caps', () => {
  it('closes a connection that sends one awareness message over maxAwarenessBytes; joiners never get it', async () => {
    const groupId = await createGroup(server, mallory, [ana]);
    const raw = await RawNotes.open(server, mallory, groupId);
    const state = { user: { name: 'x'.repeat(NOTES_FRAME_LIMITS.maxAwarenessBytes + 2000) } };
    await raw.send(awarenessFrame(awarenessPayload([{ client: 4242, clock: 1, state }])));
    expect(await raw.closed()).toBe(NOTES.closeMalformed);

    const joiner = openNotes(ana, groupId);
    await until(() => joiner.provider.synced, 'a joiner to sync');
    expect(joiner.provider.awareness.getStates().has(4242)).toBe(false);
  });

  it('lets a connection announce at most maxAwarenessClientsPerConnection client ids', async () => {
    const groupId = await createGroup(server, mallory, [ana]);
    const raw = await RawNotes.open(server, mallory, groupId);
    const cap = NOTES_FRAME_LIMITS.maxAwarenessClientsPerConnection;
    for (let client = 1; client <= cap; client++) {
      await raw.send(awarenessFrame(awarenessPayload([{ client, clock: 1, state: { n: client } }])));
    }
    await raw.roundTrip();
    expect(raw.closeCode).toBeNull();
    await raw.send(awarenessFrame(awarenessPayload([{ client: cap + 1, clock: 1, state: { n: 0 } }])));
    expect(await raw.closed()).toBe(NOTES.closeMalformed);

    // The same ids in one message are refused too.
    const again = await RawNotes.open(server, mallory, groupId);
    const many = Array.from({ length: cap + 1 }, (_, i) => ({ client: 100 + i, clock: 1, state: {} }));
    await again.send(awarenessFrame(awarenessPayload(many)));
    expect(await again.closed()).toBe(NOTES.closeMalformed);
  });

  it('limits awareness bytes per second per connection (4529)', async () => {
    const groupId = await createGroup(server, mallory, [ana]);
    const raw = await RawNotes.open(server, mallory, groupId);
    const state = { user: { name: 'n'.repeat(3000) } };
    const rounds = Math.ceil(NOTES_FRAME_LIMITS.awarenessBytes.burst / 3000) + 2;
    for (let clock = 1; clock <= rounds; clock++) {
      void raw.send(awarenessFrame(awarenessPayload([{ client: 7, clock, state }])));
    }
    expect(await raw.closed()).toBe(NOTES.closeRateLimited);
  });
});
