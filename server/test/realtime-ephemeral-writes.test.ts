import net from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeServerFrame, PROTOCOL_VERSION } from '@campus/protocol';
import { Connection } from '../src/realtime/connection';
import { corkUntilTurnEnds } from '../src/realtime/ws-socket';
import { suiteServer } from './support/test-server';
import { createUser, WsClient, type Frame } from './support/ws-client';

/** The TCP socket under a `ws` WebSocket (ws keeps it in an untyped field). */
function tcpOf(ws: WebSocket): net.Socket {
  return (ws as unknown as { _socket: net.Socket })._socket;
}

/** The payloads of the unmasked, unfragmented text frames a server wrote (each under 126 bytes here). */
function framesIn(bytes: Buffer): Frame[] {
  const frames: Frame[] = [];
  for (let at = 0; at < bytes.length;) {
    const length = bytes[at + 1]!;
    expect(bytes[at], 'a final text frame').toBe(0x81);
    expect(length, 'a short frame').toBeLessThan(126);
    frames.push(JSON.parse(bytes.subarray(at + 2, at + 2 + length).toString('utf8')) as Frame);
    at += 2 + length;
  }
  return frames;
}

type WriteFn = net.Socket['_write'];
type WritevFn = NonNullable<net.Socket['_writev']>;

/**
 * Records what each write to a server-side socket carried (the bytes of one system call, or of one writev of
 * the chunks a cork held), for the sockets `mine` picks among every net.Socket of this process. Stopped by
 * the returned function.
 */
function recordWrites(mine: (socket: net.Socket) => boolean): { writes: Buffer[]; stop(): void } {
  const proto = net.Socket.prototype;
  const write = proto._write;
  const writev = proto._writev as WritevFn;
  const writes: Buffer[] = [];
  const toBuffer = (chunk: unknown): Buffer =>
    Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'latin1');
  proto._write = function (this: net.Socket, chunk, encoding, callback) {
    if (mine(this)) writes.push(toBuffer(chunk));
    write.call(this, chunk, encoding, callback);
  } as WriteFn;
  proto._writev = function (this: net.Socket, chunks, callback) {
    if (mine(this)) writes.push(Buffer.concat(chunks.map(({ chunk }) => toBuffer(chunk))));
    writev.call(this, chunks, callback);
  } as WritevFn;
  return {
    writes,
    stop() {
      proto._write = write;
      proto._writev = writev;
    },
  };
}

describe('corkUntilTurnEnds', () => {
  it('corks a socket once per turn and uncorks it when the turn ends', async () => {
    const calls: string[] = [];
    const socket = { cork: () => calls.push('cork'), uncork: () => calls.push('uncork') };
    corkUntilTurnEnds(socket);
    corkUntilTurnEnds(socket);
    expect(calls).toEqual(['cork']);
    await nextTurn();
    expect(calls).toEqual(['cork', 'uncork']);
    corkUntilTurnEnds(socket);
    await nextTurn();
    expect(calls).toEqual(['cork', 'uncork', 'cork', 'uncork']);
  });

  it('does no harm to a socket destroyed while corked', async () => {
    const listener = net.createServer((peer) => peer.on('error', () => {}));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const errors: unknown[] = [];
    socket.on('error', (err) => errors.push(err));
    corkUntilTurnEnds(socket);
    socket.write('held');
    socket.destroy();
    await nextTurn();
    await nextTurn();
    expect(errors).toEqual([]);
    expect(socket.writableCorked).toBe(0);
    await new Promise((resolve) => listener.close(resolve));
  });
});

describe('frames to one socket in one turn', () => {
  const server = suiteServer();

  it('sends presence frames and the frames around them in order, in one write', async () => {
    const bob = await createUser(server(), 'Bob');
    const b = await WsClient.connect(server(), bob);
    let conn: Connection | undefined;
    server().engine.hub.forEachConnection((c) => {
      if (c.userId === bob.id && c instanceof Connection) conn = c;
    });
    if (!conn) throw new Error("Bob's connection is not in the hub");
    const serverSide = tcpOf(conn.ws);
    await WsClient.settle(100);
    const from = b.frames.length;
    const recorded = recordWrites((socket) => socket === serverSide);
    try {
      // One turn: ephemeral frames (corked until the turn ends) around a change frame, written straight to
      // the TCP socket (connection.ts sendFrame), and a frame sent through ws.
      server().engine.hub.sendToUsers([bob.id], { type: 'user_online', userId: 'u1' });
      conn.sendFrame(Buffer.from(encodeServerFrame({ type: 'online_count', count: 2 })));
      server().engine.hub.sendToUsers([bob.id], { type: 'user_online', userId: 'u3' });
      conn.send({ type: 'online_count', count: 4 });
      server().engine.hub.sendToUsers([bob.id], { type: 'user_online', userId: 'u5' });
      await b.waitFor((f) => f.type === 'user_online' && f.userId === 'u5', from);
    } finally {
      recorded.stop();
    }
    const expected = [
      { type: 'user_online', userId: 'u1' },
      { type: 'online_count', count: 2 },
      { type: 'user_online', userId: 'u3' },
      { type: 'online_count', count: 4 },
      { type: 'user_online', userId: 'u5' },
    ];
    expect(b.frames.slice(from)).toEqual(expected);
    expect(recorded.writes.map(framesIn)).toEqual([expected]);
    b.close();
  });

  it('sends the welcome, the online list and the count of a sign-in in one write', async () => {
    const ann = await createUser(server(), 'Ann');
    const ws = new WebSocket(`${server().url.replace('http', 'ws')}/ws`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const clientPort = tcpOf(ws).localPort;
    const recorded = recordWrites(
      (socket) => socket.remotePort === clientPort && socket.localPort === server().port,
    );
    const received: Frame[] = [];
    try {
      const counted = new Promise<void>((resolve) =>
        ws.on('message', (data: WebSocket.RawData) => {
          const frame = JSON.parse(String(data)) as Frame;
          received.push(frame);
          if (frame.type === 'online_count') resolve();
        }),
      );
      ws.send(JSON.stringify({ type: 'hello', v: PROTOCOL_VERSION, token: ann.token }));
      await counted;
    } finally {
      recorded.stop();
    }
    expect(received.map((f) => f.type)).toEqual(['welcome', 'online_users_list', 'online_count']);
    expect(recorded.writes.map((bytes) => framesIn(bytes).map((f) => f.type))[0]).toEqual([
      'welcome',
      'online_users_list',
      'online_count',
    ]);
    ws.terminate();
  });
});
