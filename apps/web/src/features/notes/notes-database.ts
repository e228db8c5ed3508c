import { Dexie, type EntityTable } from 'dexie';
import yDexie, { DexieYProvider } from 'y-dexie';
import type * as Y from 'yjs';

/** One row per group whose notes this user opened; the Y.Doc lives in y-dexie's update table beside it. */
interface GroupNotesRow {
  id: string;
  doc: Y.Doc;
}

type NotesDatabase = Dexie & { groupNotes: EntityTable<GroupNotesRow, 'id'> };

/**
 * A database of its own per user (not the sync engine's schema, which another package owns), named so that
 * logging out deletes it with `deleteNotesDatabases(userId)`.
 */
export function notesDatabaseName(userId: string): string {
  return `campus-talk-notes-${userId}`;
}

const open = new Map<string, NotesDatabase>();

function notesDatabase(userId: string): NotesDatabase {
  let db = open.get(userId);
  if (!db) {
    db = new Dexie(notesDatabaseName(userId), { addons: [yDexie] }) as NotesDatabase;
    db.version(1).stores({ groupNotes: 'id, doc: Y.Doc' });
    open.set(userId, db);
  }
  return db;
}

/**
 * The group's notes document, loaded from this device. Call the returned `release` when done: y-dexie counts
 * references and destroys the doc after the last one.
 */
export async function loadGroupNotes(
  userId: string,
  groupId: string,
): Promise<{ doc: Y.Doc; release(): void }> {
  const db = notesDatabase(userId);
  if (!(await db.groupNotes.get(groupId))) {
    await db.groupNotes.put({ id: groupId } as GroupNotesRow);
  }
  const doc = DexieYProvider.getOrCreateDocument(db, 'groupNotes', 'doc', groupId);
  const provider = DexieYProvider.load(doc);
  await provider.whenLoaded;
  return { doc, release: () => DexieYProvider.release(doc) };
}

/** Logout cleanup: every group's notes this user kept on the device. */
export async function deleteNotesDatabases(userId: string): Promise<void> {
  open.get(userId)?.close();
  open.delete(userId);
  await Dexie.delete(notesDatabaseName(userId));
}
