import 'fake-indexeddb/auto';
import { vi } from 'vitest';
import type { MessageErrorFrame, MutationFrame, MutationInput } from '@campus/protocol';
import type { CampusSyncClient, LocalConfession, SyncClientOptions } from '@campus/sync';
import { fakeSyncClient } from './sync-provider-fake';

const DEVICE = 'device-test';

export type FakeCampusClient = CampusSyncClient & {
  /** The server refuses the queued write carrying entity `id` (or the last one): rollback, then listeners. */
  refuse(context: MutationFrame['type'], error: string, id?: string): Promise<void>;
};

/**
 * The confession writes of the real sync client as far as the screens can tell: each queues an outbox row
 * (deviceId, mid) in Dexie, and a refusal removes that row before `message_error` reaches the listeners.
 */
export function fakeCampusClient(options: SyncClientOptions): FakeCampusClient {
  const base = fakeSyncClient(options);
  const { db } = base;
  const listeners = new Set<(frame: MessageErrorFrame) => void>();
  let mid = 0;

  async function queue(input: MutationInput): Promise<void> {
    mid += 1;
    const frame = { ...input, deviceId: DEVICE, mid } as MutationFrame;
    await db.outbox.add({ deviceId: DEVICE, mid, frame, createdAt: Date.now() });
  }

  return Object.assign(base, {
    onMessageError(listener: (frame: MessageErrorFrame) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    reactConfession: vi.fn(async (confessionId: string, reactionType, on: boolean) => {
      await queue({ type: 'confession_react', confessionId, reactionType, on });
    }) as CampusSyncClient['reactConfession'],
    commentConfession: vi.fn(async (confessionId: string, content: string) => {
      const id = crypto.randomUUID();
      await queue({ type: 'confession_comment', id, confessionId, content });
      return id;
    }),
    postConfession: vi.fn(async (content: string, emotionTag: string) => {
      const id = crypto.randomUUID();
      await queue({ type: 'confession_post', id, content, emotionTag });
      return id;
    }),
    markNotificationRead: vi.fn(async () => undefined),
    cacheConfessions: vi.fn(async (rows: readonly LocalConfession[]) => {
      await db.confessions.bulkPut([...rows]);
    }),
    loadNotifications: vi.fn(async () => 0),
    async refuse(context: MutationFrame['type'], error: string, id?: string) {
      const rows = await db.outbox.toArray();
      const row = rows
        .reverse()
        .find((r) => r.frame.type === context && (!id || ('id' in r.frame && r.frame.id === id)));
      if (!row?.key) throw new Error(`No queued ${context} to refuse`);
      await db.outbox.delete(row.key);
      const frame: MessageErrorFrame = {
        type: 'message_error',
        error,
        context,
        deviceId: DEVICE,
        mid: row.mid,
      };
      listeners.forEach((listener) => listener(frame));
    },
  });
}

/** Every campus client the app made in this test, newest last. */
export function fakeCampusFactory() {
  const clients: FakeCampusClient[] = [];
  const factory = (options: SyncClientOptions) => {
    const client = fakeCampusClient(options);
    clients.push(client);
    return client;
  };
  return { factory, clients, latest: () => clients[clients.length - 1]! };
}
