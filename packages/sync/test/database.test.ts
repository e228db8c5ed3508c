import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { deleteUserDatabase, openUserDatabase } from '../src';

describe('per-user local database', () => {
  it('keeps each account in its own database and deletes it on logout', async () => {
    const a = openUserDatabase('user-a');
    const b = openUserDatabase('user-b');
    await a.meta.put({ key: 'cursor', value: 42 });
    expect(await b.meta.get('cursor')).toBeUndefined();
    expect((await a.meta.get('cursor'))?.value).toBe(42);

    a.close();
    await deleteUserDatabase('user-a');
    expect(await Dexie.getDatabaseNames()).not.toContain('campus-talk-user-a');
    expect(await Dexie.getDatabaseNames()).toContain('campus-talk-user-b');
    b.close();
  });
});
