import { expect } from 'vitest';
import type {
  Branch,
  DocumentStatus,
  FocusedFiltersInput,
  Interest,
  RandomKind,
  SkillLevel,
} from '@campus/protocol';
import { execSql } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/** Short room limit and grace, so they run out within a test; no engine bucket in the way. */
export const LIMIT_MS = 700;
export const GRACE_MS = 300;

export function startRandomServer(options: Parameters<typeof startTestServer>[0] = {}) {
  return startTestServer({
    ...options,
    // Exact counts (no floor), so the counting itself is checked; random-counts-privacy.test.ts checks the floor.
    config: {
      randomRoomLimitMs: LIMIT_MS,
      randomReconnectGraceMs: GRACE_MS,
      randomCountFloor: 1,
      ...options.config,
    },
    realtime: { ratePerSecond: 1000, rateBurst: 1000, ...options.realtime },
  });
}

export interface ProfileFields {
  college?: { id: string; name: string; country: string } | string | null;
  course?: string | null;
  year?: number | null;
  interests?: Interest[];
  skillLevel?: SkillLevel | null;
  branch?: Branch | null;
}

export const COMPLETE: ProfileFields = {
  college: { id: 'c-mit', name: 'Massachusetts Institute of Technology', country: 'US' },
  course: 'Computer Science',
  year: 2,
};

/** Sets profile fields as a profile save would store them (a direct row update, on either database). */
export async function setProfile(server: TestServer, userId: string, fields: ProfileFields): Promise<void> {
  const p = { ...COMPLETE, ...fields };
  await execSql(
    server,
    `UPDATE users SET college = ?, course = ?, year = ?, interests = ?, skill_level = ?, branch = ?
      WHERE id = ?`,
    p.college === null || p.college === undefined ? null : JSON.stringify(p.college),
    p.course ?? null,
    p.year ?? null,
    JSON.stringify(p.interests ?? []),
    p.skillLevel ?? null,
    p.branch ?? null,
    userId,
  );
}

/** Every client the tests opened, closed after each test (`closeAll`) so no wait outlives its test. */
const opened: WsClient[] = [];

export async function connect(server: TestServer, user: TestUser): Promise<WsClient> {
  const ws = await WsClient.connect(server, user);
  opened.push(ws);
  return ws;
}

/** Closes every client still open and lets the server hear it. */
export async function closeAll(): Promise<void> {
  for (const ws of opened.splice(0)) if (ws.closeCode === undefined) ws.close();
  await WsClient.settle(100);
}

/** A student (verified, profile complete unless told otherwise), online on one device. */
export async function student(
  server: TestServer,
  name: string,
  options: { status?: DocumentStatus; profile?: ProfileFields } = {},
): Promise<{ user: TestUser; ws: WsClient }> {
  const user = await createUser(server, name, options.status ?? 'verified');
  await setProfile(server, user.id, options.profile ?? {});
  return { user, ws: await connect(server, user) };
}

/** Find; `retry`: sent again by a device that heard nothing back (REALTIME_TIMING.unansweredRetryMs). */
export function queue(ws: WsClient, kind: RandomKind, filters?: FocusedFiltersInput, retry?: true): void {
  const extra = { ...(filters ? { filters } : {}), ...(retry ? { retry } : {}) };
  if (kind === 'chat') ws.send({ type: 'join-random', ...extra });
  else ws.send({ type: 'find-partner', kind, ...extra });
}

export const isMatch = (f: Frame) => f.type === 'partner-found' || f.type === 'random-matched';
export const endOf = (roomId: string) => (f: Frame) =>
  (f.type === 'call-ended' || f.type === 'random-chat-ended') && f.roomId === roomId;

/** Queues both (a first), waits for their match and answers the room id with each side's frame. */
export async function matched(a: WsClient, b: WsClient, kind: RandomKind, filters?: FocusedFiltersInput) {
  const from = [a.frames.length, b.frames.length] as const;
  queue(a, kind, filters);
  await a.waitFor((f) => f.type === 'random-queue', from[0]);
  queue(b, kind, filters);
  const fa = await a.waitFor(isMatch, from[0]);
  const fb = await b.waitFor(isMatch, from[1]);
  expect(fa.roomId).toBe(fb.roomId);
  return { roomId: fa.roomId as string, a: fa, b: fb };
}

/** Every random-talk frame a client received (what a partner id must never appear in). */
export function randomFrames(ws: WsClient): Frame[] {
  const types = new Set([
    'random-queue',
    'partner-found',
    'random-matched',
    'random-resumed',
    'chat-message',
    'random-typing',
    'incoming-call',
    'call-accepted',
    'call-ended',
    'random-chat-ended',
    'random-reveal',
    'random-refused',
    'random-action-result',
  ]);
  return ws.frames.filter((f) => types.has(f.type));
}

/** A whole session description, as simple-peer emits it without trickle. */
export const sdp = (type: 'offer' | 'answer') => ({ type, sdp: `v=0\r\no=- ${type} 2 IN IP4 127.0.0.1\r\n` });
