/**
 * What most teams would build: Express with Socket.IO (WebSocket transport), one room per group. The
 * client names its user and group in the handshake's `auth`; a `send_group_message` event is inserted
 * into SQLite, acknowledged through Socket.IO's callback and emitted to the group's room.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Server } from 'socket.io';
import type { AckFrame, SendGroupMessageFrame } from '@campus/protocol';
import { announcePort, groupMessageFrame, openMessageStore } from './store';

const store = openMessageStore(process.env.DATA_DIR ?? './data-bench');
let seq = 0;

const app = express();
app.get('/health', (_req, res) => {
  res.json({ ok: true });
});
const http = createServer(app);
const io = new Server(http, { transports: ['websocket'], serveClient: false });

interface HandshakeAuth {
  userId?: string;
  groupId?: string;
  firstName?: string;
}

io.on('connection', (socket) => {
  const { userId = '', groupId = '', firstName = '' } = socket.handshake.auth as HandshakeAuth;
  void socket.join(groupId);
  socket.on(
    'send_group_message',
    (frame: Omit<SendGroupMessageFrame, 'type'>, ack: (reply: Omit<AckFrame, 'type'>) => void) => {
      const stored = {
        id: frame.id,
        groupId,
        senderId: userId,
        content: frame.content,
        createdAt: new Date().toISOString(),
        seq: ++seq,
      };
      store.insert(stored);
      ack({ deviceId: frame.deviceId, mid: frame.mid });
      io.to(groupId).emit('receive_group_message', groupMessageFrame(stored, firstName));
    },
  );
});

http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  announcePort((http.address() as AddressInfo).port),
);

process.on('SIGTERM', () => {
  void io.close();
  store.close();
  process.exit(0);
});
