import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import * as Y from 'yjs';
import { NOTES } from '@campus/protocol';
import { openDatabase } from '../src/lib/db/database';
import { openPostgres } from '../src/lib/db/postgres';
import { GROUP_LOCK_CLASS, PgNotesStore } from '../src/modules/notes/pg-store';
import { SqliteNotesStore } from '../src/modules/notes/sqlite-store';
import { openNotesStore } from '../src/modules/notes/open-store';
import type { NotesStore } from '../src/modules/notes/store';
import { createGroup, recordUpdates, signUp, type Student } from './notes-helpers';
import { setDocumentStatus } from './support/verify-student';
import { onPostgres, startTestServer, type TestServer } from './support/test-server';

/**
 * The notes' rows and authorization reads (store.ts) on the server's database, SQLite or PostgreSQL (the
 * server-pg project), with a second store on the same database standing for another node.
 */
let server: TestServer;
let here: NotesStore;
let otherNode: NotesStore;
let closeOther: () => Promise<void>;
let ana: Student;
let ben: Student;
let eve: Student;

beforeAll(async () => {
  server = await startTestServer();
  here = openNotesStore(server.deps);
  const { database } = server.deps.config;
  if (database.kind === 'postgres') {
    const opened = openPostgres(database.url, { schema: database.schema, max: 2 });
    otherNode = new PgNotesStore({
      db: opened.db,
      now: Date.now,
      database: { kind: 'postgres', open: true },
    });
    closeOther = () => opened.close();
  } else {
    const opened = openDatabase(path.join(server.deps.config.dataDir, 'campus-talk.sqlite'));
    otherNode = new SqliteNotesStore(opened.sqlite, Date.now);
    closeOther = () => opened.close();
  }
  ana = await signUp(server, 'Ana');
  ben = await signUp(server, 'Ben');
  eve = await signUp(server, 'Eve');
});
afterAll(async () => {
  await closeOther();
  await server.close();
});

/** `count` updates typed one after another into one document, and the text they make together. */
function typing(count: number): { updates: Uint8Array[]; text: string } {
  const doc = new Y.Doc();
  const updates = recordUpdates(doc, (text) => {
    for (let i = 0; i < count; i++) text.insert(text.length, `${i} `);
  });
  return { updates, text: doc.getText(NOTES.textName).toString() };
}

const textOf = (updates: Uint8Array[]) => {
  const doc = new Y.Doc();
  if (updates.length) Y.applyUpdate(doc, Y.mergeUpdates(updates));
  return doc.getText(NOTES.textName).toString();
};

describe('the notes store', () => {
  it('reads a group’s rows back in id order, and only those after a given id', async () => {
    const groupId = await createGroup(server, ana);
    const { updates, text } = typing(5);
    const ids: number[] = [];
    for (const [i, update] of updates.entries())
      ids.push(await (i % 2 ? otherNode : here).append(groupId, update));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const rows = await here.load(groupId);
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(textOf(rows.map((row) => row.update))).toBe(text);
    expect((await here.load(groupId, ids[2])).map((row) => row.id)).toEqual(ids.slice(3));
  });

  it('loses no row another node stores while this one compacts over and over', async () => {
    const groupId = await createGroup(server, ana);
    const { updates, text } = typing(60);
    let seen = 0;
    const folded = new Y.Doc();
    let storing = true;
    const stores = (async () => {
      try {
        for (const update of updates) await otherNode.append(groupId, update);
      } finally {
        storing = false;
      }
    })();
    let compactions = 0;
    while (storing || compactions < 3) {
      const written = await here.compact(groupId, seen, (unseen) => {
        if (unseen.length) Y.applyUpdate(folded, Y.mergeUpdates(unseen));
        return Y.encodeStateAsUpdate(folded);
      });
      // The snapshot holds every row up to its own id: later rows are read as unseen next time.
      seen = written.id;
      compactions += 1;
    }
    await stores;
    const rows = await here.load(groupId);
    expect(textOf(rows.map((row) => row.update))).toBe(text);
  });

  it('answers membership and document status as they are now', async () => {
    const groupId = await createGroup(server, ana, [ben]);
    await setDocumentStatus(server, ben.userId, 'pending_verification');
    expect(await here.access(groupId, ana.userId)).toEqual({ member: true, status: 'verified' });
    expect(await here.access(groupId, ben.userId)).toEqual({
      member: true,
      status: 'pending_verification',
    });
    expect(await here.access(groupId, eve.userId)).toEqual({ member: false, status: 'verified' });
    expect(await here.access(groupId, 'no-such-user')).toEqual({ member: false, status: null });
    await setDocumentStatus(server, ben.userId, 'verified');
    expect(await here.access(groupId, ben.userId)).toEqual({ member: true, status: 'verified' });
  });

  it('gives each of many connections asking at once its own answer', async () => {
    const groups = [await createGroup(server, ana, [ben]), await createGroup(server, eve)];
    const students = [ana, ben, eve];
    const asked = Array.from({ length: 120 }, (_, i) => ({
      groupId: groups[i % 2]!,
      student: students[Math.floor(i / 2) % 3]!,
    }));
    const answers = await Promise.all(asked.map((a) => here.access(a.groupId, a.student.userId)));
    answers.forEach((answer, i) => {
      const { groupId, student } = asked[i]!;
      const member = groupId === groups[0] ? student !== eve : student === eve;
      expect(answer.member).toBe(member);
    });
  });
});

// Declared only on PostgreSQL (the server-pg project), so the SQLite run reports no skipped test.
if (onPostgres)
  describe('the notes store on PostgreSQL', () => {
    /**
     * seenRowId relies on a group's row ids committing in id order. With the group's lock held elsewhere, an
     * append waits before it has an id: the id it gets is later than one drawn while it waited.
     */
    it('draws an append’s id only once it holds the group’s lock', async () => {
      const groupId = await createGroup(server, ana);
      const { database } = server.deps.config;
      if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
      const holder = new pg.Client({
        connectionString: database.url,
        options: `-c search_path=${database.schema}`,
      });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1::int4, hashtext($2::text))', [
          GROUP_LOCK_CLASS,
          groupId,
        ]);
        const [update] = typing(1).updates;
        const appended = here.append(groupId, update!);
        // The append is waiting for the lock.
        for (;;) {
          const { rows } = await holder.query<{ n: string }>(
            "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          if (Number(rows[0]!.n) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const { rows } = await holder.query<{ id: string }>(
          "SELECT nextval(pg_get_serial_sequence('group_notes_updates', 'id')) AS id",
        );
        await holder.query('COMMIT');
        expect(await appended).toBeGreaterThan(Number(rows[0]!.id));
      } finally {
        await holder.end();
      }
    });
  });
