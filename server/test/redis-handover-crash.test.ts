import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endOf, frameOf, hangUp, logsOf, offer } from './calls-helpers';
import {
  chatFlows,
  connecting,
  ending,
  friends,
  placeCall,
  rollCalls,
  seenOnline,
  until,
} from './handover-helpers';
import { isMatch, matched, queue, endOf as roomEndOf, setProfile } from './random-helpers';
import { requireRedis, TEST_REDIS_URL, testRedisConfig } from './support/redis';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { cliEnvFor, startTestServer, type TestServer } from './support/test-server';
import { rowsOf } from './support/sql';
import { createUser, WsClient } from './support/ws-client';

/**
 * Issue 14, a coordinator that dies without a word (SIGKILL): node 1 runs main.ts in a process of its own
 * and coordinates the calls and random talk; node 2 runs in this process on the same database and Redis.
 * Once node 1's lease expires (5 s), node 2 takes it and carries on from what node 1 kept in Redis: the
 * calls and rooms of node 2's students go on, ring and grace deadlines still hold, the queue still waits;
 * what was held by node 1's own connections ends after the grace, unless its student comes back on node 2.
 * Without Redis these tests fail, they are never skipped.
 */
const RING_MS = 12_000;
const TIMINGS = { callGrace: 15_000, randomGrace: 3000 };
let redisClient: Redis;
const processes: ServerProcess[] = [];
const nodes: TestServer[] = [];
const dirs: string[] = [];
const sockets: WsClient[] = [];
const listeners: { close(): void }[] = [];

beforeAll(async () => {
  await requireRedis();
  redisClient = new Redis(TEST_REDIS_URL);
});
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.close();
  // The node hears the closes before it stops.
  await WsClient.settle(100);
  for (const child of processes.splice(0)) await child.stop();
  for (const node of nodes.splice(0)) await node.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  for (const listener of listeners.splice(0)) listener.close();
});
afterAll(() => redisClient?.disconnect());

/**
 * The processes tsx's command line started: main.ts runs in a child of the process the test spawned (which
 * exits when it does), so that child is what a crash kills (Linux: /proc).
 */
function childrenOf(pid: number): number[] {
  const listed = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return listed ? listed.split(/\s+/).map(Number) : [];
}

const holders = (prefix: string) =>
  Promise.all(['calls', 'random'].map((channel) => redisClient.get(`${prefix}:lease:${channel}`)));

/** Node 1 (a process) coordinating, node 2 (here) forwarding to it, on one database. */
async function deployment() {
  const redis = testRedisConfig();
  const rolls = await rollCalls(redis.prefix);
  listeners.push(rolls);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-crash-'));
  dirs.push(dataDir);
  const node1 = await startServerProcess({
    ...(await cliEnvFor(dataDir)),
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redis.prefix,
    CALL_RING_TIMEOUT_MS: String(RING_MS),
    CALL_RECONNECT_GRACE_MS: String(TIMINGS.callGrace),
    RANDOM_RECONNECT_GRACE_MS: String(TIMINGS.randomGrace),
    REALTIME_RATE_MULTIPLIER: '100',
  });
  processes.push(node1);
  await rolls.tookOver();
  const node2 = await startTestServer({
    config: {
      redis,
      dataDir,
      callRingTimeoutMs: RING_MS,
      callReconnectGraceMs: TIMINGS.callGrace,
      randomReconnectGraceMs: TIMINGS.randomGrace,
      randomCountFloor: 1,
    },
    realtime: { ratePerSecond: 1000, rateBurst: 1000 },
  });
  nodes.push(node2);
  expect(await holders(redis.prefix)).not.toContain(node2.redis!.nodeId);
  /** SIGKILL to the server itself: no drain, no handover. */
  const kill1 = async () => {
    const exited = new Promise((resolve) => node1.child.once('exit', resolve));
    for (const pid of childrenOf(node1.child.pid!)) process.kill(pid, 'SIGKILL');
    await exited;
  };
  const leads2 = () => rolls.tookOver(node2);
  // Node 1's clients reach it by its URL (only `url` is read).
  const onNode1 = { url: node1.url } as TestServer;
  /**
   * Until node 1 has written a call's state to Redis. A call's frames go out a moment before its state
   * (realtime/lease.ts' StateWriter flushes in a microtask), so a SIGKILL right after a frame can lose it.
   * What a crash takes is what was not written yet; these tests are about what was. (A random-talk wait is
   * acknowledged only once it is stored: redis-random-ack.test.ts; Ivy's below needs no such wait.)
   */
  const stored = (
    channel: 'calls' | 'random',
    hash: string,
    field: string,
    what: string,
    written: (value: string) => boolean = () => true,
  ) =>
    until(async () => {
      const value = await redisClient.hget(`${redis.prefix}:${channel}:${hash}`, field);
      return value !== null && written(value);
    }, what);
  return { node2, onNode1, kill1, leads2, stored };
}

const connect = connecting(sockets);

describe('calls when the coordinating node is killed', () => {
  it('live and ringing calls go on under node 2, logged once; a party of the dead node resumes on node 2; a lost offer is sent again', async () => {
    const { node2, onNode1, kill1, leads2, stored } = await deployment();
    // Ann and Bob on node 2, in a call.
    const [ann, bob] = await friends(node2, 'Ann', 'Bob');
    const [a, b] = [await connect(node2, ann), await connect(node2, bob)];
    const live = await placeCall(node2, [a, b], [ann, bob]);
    const answeredAt = Date.now();
    // Cy calls Di, both on node 2; nobody answers.
    const [cy, di] = await friends(node2, 'Cy', 'Di');
    const [c, d] = [await connect(node2, cy), await connect(node2, di)];
    const ringing = await placeCall(node2, [c, d], [cy, di], false);
    const placedAt = Date.now();
    // Ed, on node 1 itself, in a call with Fay on node 2.
    const [ed, fay] = await friends(node2, 'Ed', 'Fay');
    const [e, f] = [await connect(onNode1, ed), await connect(node2, fay)];
    const cut = await placeCall(node2, [e, f], [ed, fay]);
    await stored('calls', 'state', `c:${cut}`, 'node 1 to store the answered call', (value) => {
      return (JSON.parse(value) as { state?: string }).state === 'active';
    });
    // Gil and Hal on node 2: Gil's call will go out while no node coordinates.
    const [gil, hal] = await friends(node2, 'Gil', 'Hal');
    const [g, h] = [await connect(node2, gil), await connect(node2, hal)];
    await seenOnline(node2, hal);

    await kill1();
    const lostCall = offer(g, hal);
    // Ed's client reconnects at once, to node 2, and claims the call while no node coordinates.
    await e.waitClose();
    const back = await connect(node2, ed);
    back.send({ type: 'call:resume', callId: cut });
    await leads2();
    expect(await back.waitFor(frameOf('call:resumed', cut), 0, 5000)).toBeDefined();

    // The live call: a hang-up crosses, and it is logged once for as long as it lasted.
    hangUp(a, live, bob);
    const endedAt = Date.now();
    expect(await b.waitFor(ending(live, 'ended'))).toBeDefined();
    await a.waitFor((frame) => frame.type === 'call_logged');
    // The ringing call: no answer, at the deadline node 1 set.
    expect(await c.waitFor(endOf(ringing), 0, RING_MS)).toMatchObject({ reason: 'no_answer' });
    expect(Date.now() - placedAt).toBeLessThan(RING_MS + 1500);
    expect(await d.waitFor(endOf(ringing))).toMatchObject({ reason: 'no_answer' });
    // Ed's call goes on from his new connection.
    hangUp(f, cut, ed);
    expect(await back.waitFor(ending(cut, 'ended'))).toBeDefined();
    await back.waitFor((frame) => frame.type === 'call_logged');
    await c.waitFor((frame) => frame.type === 'call_logged');
    await WsClient.settle(500);
    // Gil's offer died with node 1. Heard nothing back, his device sends it again (`retry`): Hal's rings.
    expect([g, h].some((ws) => ws.frames.some((frame) => frame.callId === lostCall))).toBe(false);
    offer(g, hal, 'audio', lostCall, true);
    expect(await g.waitFor(frameOf('call:placed', lostCall))).toBeDefined();
    expect(await h.waitFor(frameOf('call:offer', lostCall))).toBeDefined();

    const seconds = (endedAt - answeredAt) / 1000;
    const [annLogs, bobLogs] = [(await logsOf(node2, ann)).logs, (await logsOf(node2, bob)).logs];
    expect(annLogs).toHaveLength(1);
    expect(bobLogs).toHaveLength(1);
    expect(annLogs[0]).toMatchObject({ status: 'completed' });
    expect(Math.abs(annLogs[0]!.duration - seconds)).toBeLessThanOrEqual(1);
    expect(a.of('call_logged')).toHaveLength(1);
    expect((await logsOf(node2, cy)).logs).toMatchObject([{ status: 'no_answer', duration: 0 }]);
    expect((await logsOf(node2, fay)).logs).toMatchObject([{ status: 'completed' }]);
    expect(f.frames.filter((frame) => endOf(cut)(frame) && frame.reason !== 'answered_elsewhere')).toEqual(
      [],
    );
  }, 60_000);
});

describe('random talk when the coordinating node is killed', () => {
  it('rooms of node 2 go on, the queue waits on, a lost Find is sent again, a side held on node 1 ends after its grace unless resumed on node 2; the lines said before the crash and in its gap are neither lost nor doubled', async () => {
    const { node2, onNode1, kill1, leads2, stored } = await deployment();
    const ids = new Map<WsClient, string>();
    const student = async (node: TestServer, name: string) => {
      const user = await createUser(node2, name);
      await setProfile(node2, user.id, {});
      const ws = await connect(node, user);
      ids.set(ws, user.id);
      return ws;
    };
    const pair = async (one: WsClient, two: WsClient) => (await matched(one, two, 'chat')).roomId;
    // Kim on node 1 with Lou on node 2; Gus and Hal on node 2; Ivy waits on node 2.
    const [kim, lou] = [await student(onNode1, 'Kim'), await student(node2, 'Lou')];
    const lost = await pair(kim, lou);
    // Ned on node 1 with Ora on node 2: Ned comes back through node 2 and takes his side back.
    const ned = await createUser(node2, 'Ned');
    await setProfile(node2, ned.id, {});
    const ora = await student(node2, 'Ora');
    const nedOn1 = await connect(onNode1, ned);
    const kept = await pair(nedOn1, ora);
    const [gus, hal] = [await student(node2, 'Gus'), await student(node2, 'Hal')];
    const roomId = await pair(gus, hal);
    const ivy = await student(node2, 'Ivy');
    queue(ivy, 'chat');
    // Acknowledged once stored: killing node 1 now cannot lose it.
    await ivy.waitFor((frame) => frame.type === 'random-queue');
    // Lines node 1 relayed and stored (a line goes out a moment before its write, as a call's frames do).
    ora.send({ type: 'chat-message', roomId: kept, text: 'one', n: 1 });
    await nedOn1.waitFor((frame) => frame.type === 'chat-message');
    gus.send({ type: 'chat-message', roomId, text: 'rude words', n: 1 });
    await hal.waitFor((frame) => frame.type === 'chat-message');
    await stored('random', 'state', `l:${kept}:1`, "Ora's line");
    await stored('random', 'state', `l:${roomId}:1`, "Gus's line");

    await kill1();
    // Max's Find goes to the dead coordinator, before node 2 takes over: it is lost. So is Gus's line.
    const max = await student(node2, 'Max');
    queue(max, 'chat');
    gus.send({ type: 'chat-message', roomId, text: 'in the gap', n: 2 });
    await leads2();
    // Node 2 sent the line again to itself, now coordinating: Hal has both lines, each once, numbered.
    await hal.waitFor((frame) => frame.type === 'chat-message' && frame.text === 'in the gap');
    await chatFlows(roomId, gus, hal);
    const lines = (ws: WsClient) =>
      ws.frames.filter((frame) => frame.type === 'chat-message').map((frame) => [frame.text, frame.i]);
    expect(lines(hal).slice(0, 3)).toEqual([
      ['rude words', 1],
      ['in the gap', 2],
      [expect.stringMatching(/^hello /), 3],
    ]);
    const nedBack = await connect(node2, ned);
    nedBack.send({ type: 'random-resume', roomId: kept, heard: 0 });
    // Node 2 knows the room's lines and counts from Redis: Ned's device gets the line node 1 relayed.
    expect(await nedBack.waitFor((frame) => frame.type === 'random-resumed')).toMatchObject({ said: 0 });
    ora.send({ type: 'chat-message', roomId: kept, text: 'still here', n: 2 });
    await nedBack.waitFor((frame) => frame.type === 'chat-message' && frame.text === 'still here');
    expect(lines(nedBack)).toEqual([
      ['one', 1],
      ['still here', 2],
    ]);
    // Hal's report after the takeover carries what Gus said under node 1.
    hal.send({ type: 'random-action', roomId, action: 'report', reason: 'harassment' });
    expect(await hal.waitFor((frame) => frame.type === 'random-action-result')).toMatchObject({ ok: true });
    const [report] = await rowsOf<{ evidence: string }>(
      node2,
      'SELECT evidence FROM reports WHERE reporter_id = ?',
      ids.get(hal)!,
    );
    const evidence = JSON.parse(report!.evidence) as { messages: { from: string; text: string }[] };
    expect(evidence.messages.slice(0, 2)).toEqual([
      expect.objectContaining({ from: 'reported', text: 'rude words' }),
      expect.objectContaining({ from: 'reported', text: 'in the gap' }),
    ]);

    const jo = await student(node2, 'Jo');
    queue(jo, 'chat');
    const [m1, m2] = await Promise.all([ivy.waitFor(isMatch), jo.waitFor(isMatch)]);
    expect(m1.roomId).toBe(m2.roomId);
    expect(ivy.frames.some((frame) => frame.type === 'random-refused')).toBe(false);
    // Heard nothing back, so his device sends it again (`retry`, after REALTIME_TIMING.unansweredRetryMs): now he waits.
    expect(max.frames.some((frame) => frame.type === 'random-queue' || isMatch(frame))).toBe(false);
    queue(max, 'chat', undefined, true);
    await max.waitFor((frame) => frame.type === 'random-queue');

    // Kim's side died with node 1: Lou hears it once the grace is over.
    expect(await lou.waitFor(roomEndOf(lost), 0, TIMINGS.randomGrace + 5000)).toMatchObject({
      reason: 'disconnected',
    });
    // Ned's side was taken back within the grace: that room goes on.
    expect([ora, nedBack].some((ws) => ws.frames.some(roomEndOf(kept)))).toBe(false);
  }, 60_000);
});
