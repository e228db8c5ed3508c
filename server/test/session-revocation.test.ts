import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '@y/websocket-server/utils';
import { CLOSE_CODES, NOTES, notesDocName } from '@campus/protocol';
import { collegeCatalog } from '../src/modules/colleges';
import { createGroup } from '../src/modules/groups/service';
import { startSmtpReceiver } from './support/smtp-receiver';
import { NotesSocket, notesInsertFrame } from './support/notes-socket';
import { valueOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';
import { setDocumentStatus } from './support/verify-student';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let server: TestServer;
const email = 'rhea@uni.edu';
const sockets: { close(): void }[] = [];

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({ config: { smtpUrl: smtp.url } });
  // Not about colleges: the sign-up's academic-domain lookup would first load the default data set (about
  // 10,000 colleges; many seconds on PostgreSQL, inside the test's time).
  collegeCatalog(server.deps.transactor).useSource(null);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
  await smtp.stop();
});

/** Signs up through the real routes, verified as an admin would (so Rhea may write); returns the user id. */
async function signUp(): Promise<string> {
  await server.post('/api/auth/signup', {
    firstName: 'Rhea',
    lastName: 'Das',
    email,
    password: 'secret12',
    phoneNumber: '',
  });
  const res = await server.post('/api/auth/verify-otp', { email, otpCode: await smtp.codeFor(email) });
  expect(res.status).toBe(201);
  const userId = (res.body.user as { id: string }).id;
  await setDocumentStatus(server, userId);
  return userId;
}

async function login(): Promise<string> {
  const res = await server.post('/api/auth/login', { email, password: 'secret12' });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

async function resetPassword(): Promise<void> {
  const before = smtp.count(email);
  expect((await server.post('/api/auth/request-password-reset', { email })).status).toBe(200);
  await smtp.waitForCount(email, before);
  const code = /Subject: (\d{6}) is your Campus Talk password reset code/.exec(smtp.mails.at(-1)!.raw)?.[1];
  const reset = await server.post('/api/auth/reset-password', {
    email,
    otpCode: code,
    newPassword: 'new-pass-1',
  });
  expect(reset.status).toBe(200);
}

/** One session's live sockets: the app channel and the group's notes. */
async function openSession(user: TestUser, groupId: string) {
  const ws = await WsClient.connect(server, user);
  const notes = await NotesSocket.open(server, groupId, user.token);
  sockets.push(ws, { close: () => notes.ws.close() });
  return { ws, notes };
}

const sentDirect = (client: WsClient, id: string) =>
  client.frames.some((f: Frame) => f.type === 'receive_message' && (f.message as { id: string }).id === id);

const notesText = (groupId: string) => docs.get(notesDocName(groupId))?.getText(NOTES.textName).toString();

describe('revoking a session closes its live sockets', () => {
  it('logout closes only that session’s sockets; a reset closes the rest; nothing gets through in between', async () => {
    const rheaId = await signUp();
    const carl = await createUser(server, 'Carl');
    const groupId = (await createGroup(server.deps, carl.id, { name: 'Lab', memberIds: [rheaId] })).id;
    const tokenA = await login();
    const a = await openSession({ id: rheaId, token: tokenA, name: 'Rhea' }, groupId);
    const b = await openSession({ id: rheaId, token: await login(), name: 'Rhea' }, groupId);
    const carlWs = await WsClient.connect(server, carl);
    const carlNotes = await NotesSocket.open(server, groupId, carl.token);
    sockets.push(carlWs, { close: () => carlNotes.ws.close() });

    // Before any revocation B's group messages are acknowledged: the path the last step checks works.
    const ok = b.ws.mutate({ type: 'send_group_message', id: randomUUID(), groupId, content: 'hi' });
    await b.ws.waitFor((f) => f.type === 'ack' && f.mid === ok);

    // Logout of A: A's two sockets close with 4401 within a second, B's stay up and keep receiving.
    const started = Date.now();
    expect((await server.post('/api/auth/logout', {}, tokenA)).status).toBe(200);
    expect(await a.ws.waitClose(1000)).toBe(CLOSE_CODES.unauthorized);
    expect(await a.notes.waitClose(1000)).toBe(CLOSE_CODES.unauthorized);
    expect(Date.now() - started).toBeLessThan(1000);
    const stillB = randomUUID();
    carlWs.mutate({ type: 'send_message', id: stillB, to: rheaId, content: 'still there?' });
    await b.ws.waitFor((f) => f.type === 'receive_message' && (f.message as { id: string }).id === stillB);
    expect(b.ws.closeCode).toBeUndefined();
    expect(b.notes.isOpen).toBe(true);

    // B stops reading, so what the server still sends it after the reset would be seen once it reads again.
    await WsClient.settle();
    const notesSeen = b.notes.received;
    b.ws.ws.pause();
    b.notes.ws.pause();
    await resetPassword();

    // Between the revocation and the close: a direct message and a notes edit from Carl, and writes from B.
    const between = randomUUID();
    const dm = carlWs.mutate({ type: 'send_message', id: between, to: rheaId, content: 'after reset' });
    await carlWs.waitFor((f) => f.type === 'ack' && f.mid === dm);
    carlNotes.ws.send(notesInsertFrame('carl '));
    const revokedWrite = randomUUID();
    const mid = b.ws.mutate({ type: 'send_group_message', id: revokedWrite, groupId, content: 'ghost' });
    b.notes.ws.send(notesInsertFrame('ghost'));
    await WsClient.settle(200);
    b.ws.ws.resume();
    b.notes.ws.resume();

    expect(await b.ws.waitClose(1000)).toBe(CLOSE_CODES.unauthorized);
    expect(await b.notes.waitClose(1000)).toBe(CLOSE_CODES.unauthorized);
    expect(sentDirect(b.ws, between) || sentDirect(a.ws, between)).toBe(false);
    expect(b.notes.received).toBe(notesSeen);
    expect(b.ws.frames.some((f) => f.mid === mid)).toBe(false);
    expect(await valueOf(server, 'SELECT count(*) FROM group_messages WHERE id = ?', revokedWrite)).toBe(0);
    expect(carlWs.frames.some((f) => JSON.stringify(f).includes(revokedWrite))).toBe(false);
    expect(notesText(groupId)).toContain('carl');
    expect(notesText(groupId)).not.toContain('ghost');
  });
});
