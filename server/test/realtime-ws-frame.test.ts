import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrameOf, writeTextFrame } from '../src/realtime/ws-socket';
import { until } from './support/until';

/** A change's frame written straight to the socket (the fan-out's path) must read as ws's own text frame. */

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const wss of servers.splice(0)) {
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});

async function pair(options: { perMessageDeflate?: boolean } = {}) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options });
  servers.push(wss);
  await new Promise((resolve) => wss.once('listening', resolve));
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, options);
  await new Promise((resolve) => client.once('open', resolve));
  const received: { text: string; binary: boolean }[] = [];
  client.on('message', (data, binary) => received.push({ text: String(data), binary }));
  return { server: await accepted, received };
}

describe('writeTextFrame', () => {
  it('sends text frames of every length encoding (7-bit, 16-bit, 64-bit) that ws clients read unchanged', async () => {
    const { server, received } = await pair();
    const payloads = [0, 125, 126, 65_535, 65_536, 200_000].map((n) =>
      JSON.stringify({ type: 'x', body: 'é'.repeat(Math.max(0, Math.floor((n - 20) / 2))) }),
    );
    for (const json of payloads) expect(writeTextFrame(server, Buffer.from(json))).toBe(true);
    // Interleaved with ws's own sends, in order.
    server.send('{"type":"after"}');
    await until(() => received.length === payloads.length + 1, 'every frame', 10_000, 5);
    expect(received.map((r) => r.text)).toEqual([...payloads, '{"type":"after"}']);
    expect(received.every((r) => !r.binary)).toBe(true);
  });

  it('frames a payload once for a run of recipients', () => {
    const payload = Buffer.from('{"type":"same"}');
    expect(textFrameOf(payload)).toBe(textFrameOf(payload));
    expect(textFrameOf(payload).subarray(2).toString()).toBe('{"type":"same"}');
    expect(textFrameOf(Buffer.from('{"type":"same"}'))).not.toBe(textFrameOf(payload));
  });

  it('leaves the frame to ws when permessage-deflate is on or the socket is not open', async () => {
    const { server } = await pair({ perMessageDeflate: true });
    expect(writeTextFrame(server, Buffer.from('{}'))).toBe(false);
    const plain = await pair();
    plain.server.close();
    expect(writeTextFrame(plain.server, Buffer.from('{}'))).toBe(false);
  });
});
