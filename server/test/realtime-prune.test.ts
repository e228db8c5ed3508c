import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rowsOf } from './support/sql';
import { startTestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

const DAY = 24 * 60 * 60 * 1000;

describe('change log retention', () => {
  it('prunes entries older than 30 days at start; a cursor before them gets sync_reset, a recent one catches up', async () => {
    const old = await startTestServer({ now: () => Date.now() - 40 * DAY });
    const ann = await createUser(old, 'Ann');
    const bob = await createUser(old, 'Bob');
    const a = await WsClient.connect(old, ann);
    for (let i = 0; i < 3; i++) {
      const mid = a.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: `old ${i}` });
      await a.waitFor((f) => f.type === 'ack' && f.mid === mid);
    }
    a.close();
    const dataDir = old.dataDir;
    await old.stop();

    const fresh = await startTestServer({ config: { dataDir } });
    try {
      // Sessions were made with the old clock and have expired by now: sign in again.
      const bobAgain = { ...bob, token: (await createSessionFor(fresh, bob.id)).token };
      // The newest entry stays: it carries the seq counter. On PostgreSQL the prune at start runs beside
      // the server's first requests (engine.ts), and under load it finished after this read: wait for it.
      const seqs = async () =>
        (await rowsOf<{ seq: number }>(fresh, 'SELECT seq FROM change_log')).map((r) => r.seq);
      await expect.poll(seqs, { timeout: 10_000 }).toEqual([3]);
      const stale = await WsClient.connect(fresh, bobAgain, { pull: 1 });
      expect(stale.of('sync_reset')).toHaveLength(1);
      expect(stale.of('changes')).toHaveLength(0);
      stale.close();
      const recent = await WsClient.connect(fresh, bobAgain, { pull: 2 });
      // seq 3 is the last old message (the reset above may add Bob's delivery receipt after it).
      const page = recent.of('changes')[0]!;
      expect(page.hasMore).toBe(false);
      expect((page.changes as { seq: number; type: string }[])[0]).toMatchObject({
        seq: 3,
        type: 'receive_message',
      });
      recent.close();
    } finally {
      await fresh.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function createSessionFor(server: Awaited<ReturnType<typeof startTestServer>>, userId: string) {
  const { createSession } = await import('../src/lib/auth/sessions');
  return createSession(server.deps.db, userId, Date.now());
}
