import { describe, expect, it } from 'vitest';
import { CALL_MSG } from '@campus/protocol';
import { RTC_CONFIG_RATE } from '../src/modules/calls/routes';
import { answer, befriend, frameOf, offer, online, startCallServer } from './calls-helpers';
import { rowsOf } from './support/sql';
import { startTestServer } from './support/test-server';

/** A call's life at the edges: the server stopping mid-call, and the ICE configuration's own limit. */
describe('calls at the edges', () => {
  it('a call cut by the server stopping is logged, answered ones with their duration', async () => {
    let now = Date.parse('2026-11-27T10:00:00.000Z');
    const server = await startCallServer({ now: () => now });
    const {
      users: [ann, sam, kim, lee],
      sockets: [annWs, samWs, kimWs],
    } = await online(server, 'Ann', 'Sam', 'Kim', 'Lee');
    await befriend(server, ann, sam);
    await befriend(server, kim, lee);
    const live = offer(annWs, sam);
    await samWs.waitFor(frameOf('call:offer', live));
    answer(samWs, live, ann);
    await annWs.waitFor(frameOf('call:answer', live));
    const ringing = offer(kimWs, lee);
    await kimWs.waitFor(frameOf('call:ringing', ringing));
    now += 95_000;

    await server.stop();
    // What the stop wrote, read by a server started again on the same data (its SQLite file, or its
    // PostgreSQL schema under TEST_DATABASE=postgres).
    const reopened = await startTestServer({ config: { dataDir: server.dataDir } });
    try {
      const rows = await rowsOf<{ caller_id: string; status: string; duration: number }>(
        reopened,
        'SELECT caller_id, status, duration FROM call_logs ORDER BY caller_id',
      );
      expect(rows).toEqual(
        expect.arrayContaining([
          { caller_id: ann.id, status: 'completed', duration: 95 },
          { caller_id: kim.id, status: 'missed', duration: 0 },
        ]),
      );
      expect(rows).toHaveLength(2);
    } finally {
      await reopened.close();
      await server.close();
    }
  });

  it('hands out ICE configurations (TURN credentials) at most RTC_CONFIG_RATE.limit times an hour', async () => {
    const server = await startCallServer();
    try {
      const {
        users: [ann],
      } = await online(server, 'Ann');
      for (let i = 0; i < RTC_CONFIG_RATE.limit; i++)
        expect((await server.get('/api/rtc/config', ann.token)).status).toBe(200);
      const refused = await server.get('/api/rtc/config', ann.token);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: CALL_MSG.rateLimited });
    } finally {
      await server.close();
    }
  });
});
