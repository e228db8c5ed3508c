import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { answer, befriend, endOf, frameOf, offer } from './calls-helpers';
import { TEST_REDIS_URL } from './support/redis';
import { until as pollUntil } from './support/until';
import type { TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/** A coordinator handing over (redis-handover*.test.ts): what both the graceful and the crash tests use. */

/** until() with the handover tests' patience: a coordinator's lease and its Redis round trips. */
export const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) =>
  pollUntil(check, what, timeoutMs, 25);

/** Two students who are friends (they may call each other). */
export async function friends(node: TestServer, a: string, b: string) {
  const [one, two] = [await createUser(node, a), await createUser(node, b)];
  await befriend(node, one, two);
  return [one, two] as const;
}

/**
 * Until every user is online for the whole deployment (Redis presence, which `node` reads): the coordinator
 * rings a callee only then, and a connection's presence reaches Redis a moment after its welcome.
 */
export function seenOnline(node: TestServer, ...users: { id: string }[]) {
  return until(
    async () =>
      (await node.deps.realtime.onlineAmongAnywhere(users.map((u) => u.id))).length === users.length,
    'the callees to be online',
  );
}

/** A `connect` that keeps each socket in `opened` (the test closes them after it). */
export function connecting(opened: WsClient[]) {
  return async (node: TestServer, user: TestUser) => {
    const ws = await WsClient.connect(node, user);
    opened.push(ws);
    return ws;
  };
}

/**
 * `users[0]` on `ws[0]` calls `users[1]` on `ws[1]` (friends), once the callee is seen online; it rings,
 * and unless `answered` is false the callee answers. Its id.
 */
export async function placeCall(
  node: TestServer,
  ws: readonly [WsClient, WsClient],
  users: readonly [TestUser, TestUser],
  answered = true,
): Promise<string> {
  const [caller, callee] = users;
  await seenOnline(node, callee);
  const id = offer(ws[0], callee);
  await ws[1].waitFor(frameOf('call:offer', id));
  if (!answered) return id;
  answer(ws[1], id, caller);
  await ws[0].waitFor(frameOf('call:answer', id));
  return id;
}

/** Text sent by each side of a chat room reaches the other, in the room (after the last `from` frames). */
export async function chatFlows(roomId: string, a: WsClient, b: WsClient): Promise<void> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const seen = to.frames.length;
    const text = `hello ${randomUUID()}`;
    from.send({ type: 'chat-message', roomId, text });
    expect(await to.waitFor((f) => f.type === 'chat-message', seen)).toMatchObject({ roomId, text });
  }
}

export const ending = (id: string, reason: string) => (f: Frame) => endOf(id)(f) && f.reason === reason;

/**
 * Listens on a deployment's calls and random channels for roll calls, which a node sends once it took a
 * lease over and loaded the state (coordinator.ts). The lease key alone says too little: Redis names the
 * new holder a moment before that node has heard so, and a frame sent in between is forwarded to the
 * node that is gone.
 */
export async function rollCalls(prefix: string) {
  const sub = new Redis(TEST_REDIS_URL);
  const rolled = new Map<string, Set<string>>();
  sub.on('message', (channel: string, message: string) => {
    const cut = message.indexOf('\n');
    const node = message.slice(0, cut);
    // A takeover's roll call, not a coordinator's periodic check of the connections it holds.
    const body = JSON.parse(message.slice(cut + 1)) as { k?: string; check?: boolean };
    if (body.k !== 'roll' || body.check) return;
    rolled.set(node, (rolled.get(node) ?? new Set()).add(channel));
  });
  await sub.subscribe(`${prefix}:calls`, `${prefix}:random`);
  const both = (node: string) => rolled.get(node)?.size === 2;
  return {
    /** Resolves once one of `nodes` (none named: any node) coordinates both, its state loaded. */
    tookOver: (...nodes: TestServer[]) =>
      until(() => {
        const ids = nodes.length ? nodes.map((node) => node.redis!.nodeId) : [...rolled.keys()];
        return ids.some(both);
      }, 'a node to take over'),
    close: () => sub.disconnect(),
  };
}
