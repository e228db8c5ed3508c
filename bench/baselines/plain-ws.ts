/**
 * The floor: a bare `ws` server with no auth and no validation doing the same fan-out as the app. The
 * client names its user and group in the URL (there is no token to leak). Each `send_group_message` is
 * inserted into SQLite, acknowledged to the sender and broadcast to every member of the group.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SendGroupMessageFrame } from '@campus/protocol';
import { announcePort, groupMessageFrame, openMessageStore } from './store';

const store = openMessageStore(process.env.DATA_DIR ?? './data-bench');
const rooms = new Map<string, Set<WebSocket>>();
let seq = 0;

const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0), path: '/ws' });

wss.on('connection', (socket, request) => {
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
  const userId = query.get('u') ?? '';
  const groupId = query.get('g') ?? '';
  const firstName = query.get('n') ?? '';
  let room = rooms.get(groupId);
  if (!room) rooms.set(groupId, (room = new Set()));
  room.add(socket);
  socket.on('close', () => room.delete(socket));

  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as SendGroupMessageFrame;
    if (frame.type !== 'send_group_message') return;
    const stored = {
      id: frame.id,
      groupId,
      senderId: userId,
      content: frame.content,
      createdAt: new Date().toISOString(),
      seq: ++seq,
    };
    store.insert(stored);
    socket.send(JSON.stringify({ type: 'ack', deviceId: frame.deviceId, mid: frame.mid }));
    // Serialised once, sent as the same buffer to every member.
    const payload = Buffer.from(JSON.stringify(groupMessageFrame(stored, firstName)));
    for (const member of room) member.send(payload);
  });
});

wss.on('listening', () => announcePort((wss.address() as AddressInfo).port));

process.on('SIGTERM', () => {
  wss.close();
  for (const client of wss.clients) client.terminate();
  store.close();
  process.exit(0);
});
