import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE_CODES } from '@campus/protocol';
import { holdRequest } from './support/held-request';
import { valueOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

const UPGRADE =
  'GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';

function storedMessages(server: TestServer, id: string): Promise<number | undefined> {
  return valueOf(server, 'SELECT COUNT(*) FROM direct_messages WHERE id = ?', id);
}

/** Whether a brand-new WebSocket gets through: true on open, false when it is refused. */
function upgradeAccepted(server: TestServer): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
    ws.once('open', () => {
      ws.terminate();
      resolve(true);
    });
    ws.once('error', () => resolve(false));
  });
}

describe('drain (SIGTERM)', () => {
  it('turns unready at once, refuses new upgrades, answers the mutation in flight, then closes sockets with 1012', async () => {
    // A wide commit window: the mutation is still waiting in the group commit when the drain begins.
    const server = await startTestServer({ realtime: { commitWindowMs: 2000 } });
    const ann = await createUser(server, 'Ann');
    const bob = await createUser(server, 'Bob');
    const id = randomUUID();
    let resend: Record<string, unknown>;
    try {
      const a = await WsClient.connect(server, ann);
      const b = await WsClient.connect(server, bob);
      const silent = await WsClient.open(server);
      // Requests already on their way when the drain begins (the listener is gone for new connections).
      const readyz = await holdRequest(server.port, 'GET /readyz HTTP/1.1\r\nHost: x\r\n');
      const healthz = await holdRequest(server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const upgrade = await holdRequest(server.port, UPGRADE);
      const frame = { type: 'send_message', id, to: bob.id, content: 'just before the drain' };
      const mid = a.mutate(frame);
      resend = { ...frame, deviceId: a.deviceId, mid };
      await WsClient.settle(100);
      expect(a.of('ack')).toHaveLength(0);

      const closes = Promise.all([a, b, silent].map((c) => c.waitClose()));
      const drained = server.drain(5000);

      const ready = await readyz.finish();
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({ status: 'draining' });
      expect(ready.headers['cache-control']).toBe('no-store');
      expect(ready.headers.connection).toBe('close');
      // Still alive: liveness is not readiness.
      expect((await healthz.finish()).status).toBe(200);
      expect((await upgrade.finish()).status).toBe(503);
      expect(await upgradeAccepted(server)).toBe(false);

      expect(await closes).toEqual([
        CLOSE_CODES.serviceRestart,
        CLOSE_CODES.serviceRestart,
        CLOSE_CODES.serviceRestart,
      ]);
      // Committed without waiting out the window, acknowledged and delivered before the sockets closed.
      expect(a.of('ack')).toEqual([expect.objectContaining({ deviceId: a.deviceId, mid })]);
      expect(b.of('receive_message')).toEqual([
        expect.objectContaining({ message: expect.objectContaining({ id }) }),
      ]);
      expect(await storedMessages(server, id)).toBe(1);
      await drained;
    } finally {
      await server.stop();
    }

    // The node restarted on the same database: the device's resend is acknowledged, not applied again.
    const again = await startTestServer({ config: { dataDir: server.dataDir } });
    try {
      const a = await WsClient.connect(again, ann);
      a.send(resend);
      expect(await a.waitFor((f) => f.type === 'ack' || f.type === 'message_error')).toMatchObject({
        type: 'ack',
        mid: resend.mid,
      });
      expect(await storedMessages(again, id)).toBe(1);
      a.close();
    } finally {
      await again.close();
    }
  });

  it('lets a request in flight finish before the sockets close', async () => {
    const server = await startTestServer();
    try {
      const ann = await createUser(server, 'Ann');
      const bob = await createUser(server, 'Bob');
      const b = await WsClient.connect(server, bob);
      const body = JSON.stringify({ name: 'Drained', memberIds: [bob.id] });
      // Headers and half the body: the handler is running, waiting for the rest.
      const post = await holdRequest(
        server.port,
        `POST /api/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ann.token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      const drained = server.drain(5000);
      await WsClient.settle(200);
      expect(b.closeCode).toBeUndefined();
      const res = await post.finish(body.slice(10));
      expect(res.status).toBe(201);
      expect(res.headers.connection).toBe('close');
      expect(await b.waitClose()).toBe(CLOSE_CODES.serviceRestart);
      // The group the request made reached Bob's socket before it closed.
      expect(b.frames.some((f) => JSON.stringify(f).includes('Drained'))).toBe(true);
      await drained;
    } finally {
      await server.close();
    }
  });

  it('stops waiting at DRAIN_TIMEOUT_MS, and stop() still ends what is left', async () => {
    const server = await startTestServer({ config: { drainTimeoutMs: 300 } });
    // A request that never completes would hold the drain forever.
    const stuck = await holdRequest(server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const started = Date.now();
    await server.drain();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(2000);
    const stopping = Date.now();
    await server.close();
    expect(Date.now() - stopping).toBeLessThan(2000);
    stuck.destroy();
  });
});
