import { describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { databaseName, openUserDatabase } from '../src';
import { ME, confession, incoming, notification, BO } from './support/fixtures';

/** The schema as issue 3 shipped it (versions 1–4), to create a database the way a user has it today. */
function openVersion4(indexedDB: IDBFactory): Dexie {
  const db = new Dexie(databaseName(ME.id), { indexedDB, IDBKeyRange });
  db.version(1).stores({ meta: 'key', users: 'id' });
  db.version(2).stores({
    meta: 'key',
    users: 'id',
    conversations: 'id, lastMessageTimestamp',
    messages: 'id, [peerId+timestamp], status',
    groups: 'id',
    groupMessages: 'id, [group+timestamp]',
    outbox: '++key, [deviceId+mid]',
    confessions: 'id',
    notifications: 'id',
    friends: 'id',
  });
  db.version(3).stores({
    messages: 'id, [peerId+timestamp], [peerId+seq], status',
    groupMessages: 'id, [group+timestamp], [group+seq]',
    outbox: '++key, [deviceId+mid], frame.id',
  });
  db.version(4).stores({ groupMessages: 'id, [group+timestamp], [group+seq], status' });
  return db;
}

describe('local database upgrade to the current version', () => {
  it('keeps every existing row and indexes cached notifications and confessions', async () => {
    const indexedDB = new IDBFactory();
    const old = openVersion4(indexedDB);
    const message = { ...incoming(BO, 'still here'), peerId: BO.id };
    const read = notification({ isRead: true });
    const unread = notification();
    const card = confession();
    const { feedOrder: _dropped, ...oldCard } = card;
    await old.table('meta').put({ key: 'sync.cursor', value: 77 });
    await old.table('messages').put(message);
    await old.table('notifications').bulkPut([read, unread]);
    await old.table('confessions').put(oldCard);
    old.close();

    const db = openUserDatabase(ME.id, { indexedDB, IDBKeyRange });
    expect(db.verno).toBe(7);
    expect((await db.meta.get('sync.cursor'))?.value).toBe(77);
    expect(await db.messages.get(message.id)).toEqual(message);
    expect(await db.notifications.where('unread').equals(1).primaryKeys()).toEqual([unread.id]);
    expect(await db.notifications.get(read.id)).toEqual({ ...read, unread: 0 });
    const upgraded = await db.confessions.orderBy('feedOrder').first();
    expect(upgraded).toMatchObject(oldCard);
    expect(upgraded?.feedOrder).toBe(-Date.parse(card.createdAt));
    // v6: the friends feature's tables, friends sorted by name, requests newest first.
    await db.friends.put(BO);
    expect(await db.friends.orderBy('firstName').toArray()).toEqual([BO]);
    expect(await db.friendRequests.orderBy('createdAt').count()).toBe(0);
    expect(await db.blocks.count()).toBe(0);
    // v7: call history, newest first.
    expect(await db.callLogs.orderBy('startedAt').count()).toBe(0);
    db.close();
  });
});
