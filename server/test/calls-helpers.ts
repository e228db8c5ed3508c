import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { CallLogsPage, CallType } from '@campus/protocol';
import { sendDirectMessage } from '../src/modules/chat';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/** Short ring and grace periods, so the timeouts run within a test; no engine bucket in the way. */
export const RING_MS = 400;
export const GRACE_MS = 400;

export function startCallServer(options: Parameters<typeof startTestServer>[0] = {}) {
  return startTestServer({
    ...options,
    config: { callRingTimeoutMs: RING_MS, callReconnectGraceMs: GRACE_MS, ...options.config },
    realtime: { ratePerSecond: 1000, rateBurst: 1000, ...options.realtime },
  });
}

/** A whole session description, as simple-peer emits it without trickle. */
export function sdp(type: 'offer' | 'answer') {
  return { type, sdp: `v=0\r\no=- ${randomUUID()} 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n` };
}

/** Places a call from `ws` to `to`; returns its id. `retry`: the same offer sent again (see the protocol). */
export function offer(
  ws: WsClient,
  to: TestUser,
  callType: CallType = 'audio',
  callId: string = randomUUID(),
  retry?: true,
): string {
  ws.send({
    type: 'call:offer',
    callId,
    to: to.id,
    callType,
    signal: sdp('offer'),
    ...(retry ? { retry } : {}),
  });
  return callId;
}

export const answer = (ws: WsClient, callId: string, to: TestUser) =>
  ws.send({ type: 'call:answer', callId, to: to.id, signal: sdp('answer') });
export const reject = (ws: WsClient, callId: string, to: TestUser) =>
  ws.send({ type: 'call:reject', callId, to: to.id });
export const hangUp = (ws: WsClient, callId: string, to: TestUser, reason?: 'ended' | 'failed') =>
  ws.send({ type: 'call:end', callId, to: to.id, ...(reason ? { reason } : {}) });

/** A call frame of this type for this call. */
export const frameOf = (type: string, callId: string) => (f: Frame) => f.type === type && f.callId === callId;
export const endOf = (callId: string) => frameOf('call:end', callId);

/** Every call frame (and call log change) a client received. */
export function callFrames(ws: WsClient): Frame[] {
  return ws.frames.filter((f) => f.type.startsWith('call:') || f.type === 'call_logged');
}

/** Two students who wrote to each other (a direct chat in which each has written). */
export async function chatted(server: TestServer, a: TestUser, b: TestUser): Promise<void> {
  await sendDirectMessage(server.deps, a.id, { id: randomUUID(), to: b.id, content: 'Call me?' });
  await sendDirectMessage(server.deps, b.id, { id: randomUUID(), to: a.id, content: 'Sure.' });
}

/** Only `a` wrote to `b`: an unanswered first message. */
export async function wroteOnce(server: TestServer, a: TestUser, b: TestUser): Promise<void> {
  await sendDirectMessage(server.deps, a.id, { id: randomUUID(), to: b.id, content: 'Hi, call me?' });
}

/** Two students who are friends (a request accepted), through the API. */
export async function befriend(server: TestServer, a: TestUser, b: TestUser): Promise<void> {
  expect((await server.post('/api/users/friends/requests', { to: b.id }, a.token)).status).toBe(200);
  const incoming = (await server.get('/api/users/friends/requests', b.token)).body as unknown as {
    id: string;
  }[];
  const request = incoming.find(() => true)!;
  const accepted = await server.call(
    'PUT',
    `/api/users/friends/requests/${request.id}/accept`,
    undefined,
    b.token,
  );
  expect(accepted.status).toBe(200);
}

/** New students, each online on one device (in the order of `names`). */
export async function online<N extends string[]>(
  server: TestServer,
  ...names: N
): Promise<{ users: { [K in keyof N]: TestUser }; sockets: { [K in keyof N]: WsClient } }> {
  const users: TestUser[] = [];
  const sockets: WsClient[] = [];
  for (const name of names) {
    const user = await createUser(server, name);
    users.push(user);
    sockets.push(await WsClient.connect(server, user));
  }
  return { users, sockets } as { users: { [K in keyof N]: TestUser }; sockets: { [K in keyof N]: WsClient } };
}

export async function logsOf(server: TestServer, user: TestUser, query = ''): Promise<CallLogsPage> {
  const res = await server.get(`/api/users/call-logs${query}`, user.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as CallLogsPage;
}

/** The call_logged change a client received live for a call between these two, newest last. */
export function loggedChanges(ws: WsClient) {
  return ws
    .of('call_logged')
    .map((f) => f.log as { status: string; duration: number; callee: { id: string } });
}
