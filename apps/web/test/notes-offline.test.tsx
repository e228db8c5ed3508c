import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { NOTES } from '@campus/protocol';
import { deleteNotesDatabases, loadGroupNotes } from '../src/features/notes/notes-database';
import { connectGroupNotes } from '../src/features/notes/connect-group-notes';

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function notesText(userId: string, groupId: string): Promise<string> {
  const { doc, release } = await loadGroupNotes(userId, groupId);
  const text = doc.getText(NOTES.textName).toString();
  release();
  return text;
}

describe('group notes on this device', () => {
  it('keeps edits in the user’s own database until logout deletes it', async () => {
    const first = await loadGroupNotes('u-ana', 'g-1');
    first.doc.getText(NOTES.textName).insert(0, 'Written on the train');
    // y-dexie stores updates asynchronously; give it the moment a real tab would have.
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.release();

    expect(await notesText('u-ana', 'g-1')).toBe('Written on the train');
    expect(await notesText('u-ben', 'g-1')).toBe('');

    await deleteNotesDatabases('u-ana');
    expect(await notesText('u-ana', 'g-1')).toBe('');
  });

  it('says offline when the server cannot be reached, and keeps the text editable', async () => {
    const session = connectGroupNotes({
      userId: 'u-cy',
      groupId: 'g-2',
      token: 'tok',
      serverUrl: 'http://127.0.0.1:9',
    });
    try {
      await until(() => session.getSnapshot().doc !== null, 'the document to load');
      expect(session.getSnapshot().status).not.toBe('synced');
      await until(() => session.getSnapshot().status === 'offline', 'the offline status');
      const text = session.getSnapshot().doc?.getText(NOTES.textName);
      text?.insert(0, 'still works');
      expect(text?.toString()).toBe('still works');
    } finally {
      session.destroy();
    }
  });
});
