import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOSE_CODES,
  PERMANENT_SUSPENSION_UNTIL,
  PROTOCOL_VERSION,
  REPORT_MSG,
  SERVER_MSG,
} from '@campus/protocol';
import { createSession } from '../src/lib/auth/sessions';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { WsClient, type TestUser } from './support/ws-client';
import { account, chatted, decide, filed, PASSWORD } from './reports-helpers';
import { rowOf } from './support/sql';

const clock = testClock();
let server: TestServer;
let admin: TestUser;
const sockets: WsClient[] = [];
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  admin = await account(server, 'Ada', 'admin');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server.close();
});

async function reported(name: string) {
  const reporter = await account(server, `${name}Reporter`);
  const user = await account(server, name);
  await chatted(server, user, reporter);
  const id = await filed(server, reporter, { kind: 'chat', userId: user.id }, { block: false });
  return { reporter, user, id };
}

const login = (email: string, password = PASSWORD) => server.post('/api/auth/login', { email, password });

describe('suspend_account', () => {
  it('closes every live socket at once, ends every session, and refuses sign-in with the date', async () => {
    const { user, reporter, id } = await reported('Sid');
    const second = await login(user.email);
    expect(second.status).toBe(200);
    const other = { ...user, token: second.body.token as string };
    const wsA = await WsClient.connect(server, user);
    const wsB = await WsClient.connect(server, other);
    const bystander = await WsClient.connect(server, reporter);
    sockets.push(wsA, wsB, bystander);

    const res = await decide(server, admin, id, { decision: 'suspend_account', days: 14, note: 'Threats' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const until = new Date(clock.now() + 14 * DAY).toISOString();
    expect(res.body).toMatchObject({
      status: 'upheld',
      decision: { decision: 'suspend_account', days: 14, until },
      reportedRestriction: { accountSuspendedUntil: until },
    });
    expect(await wsA.waitClose()).toBe(CLOSE_CODES.unauthorized);
    expect(await wsB.waitClose()).toBe(CLOSE_CODES.unauthorized);
    await WsClient.settle();
    expect(bystander.closeCode).toBeUndefined();
    expect(
      (await rowOf<{ n: number }>(server, 'SELECT count(*) AS n FROM sessions WHERE user_id = ?', user.id))
        ?.n,
    ).toBe(0);

    // The old tokens stop working everywhere.
    for (const token of [user.token, other.token])
      expect(await server.get('/api/auth/me', token)).toMatchObject({
        status: 401,
        body: { error: SERVER_MSG.unauthorized },
      });
    const late = await WsClient.open(server);
    sockets.push(late);
    late.send({ type: 'hello', v: PROTOCOL_VERSION, token: user.token });
    expect(await late.waitClose()).toBe(CLOSE_CODES.unauthorized);

    // Sign-in: refused after the password, with the date; a wrong password still reads as one.
    const refused = await login(user.email);
    expect(refused).toMatchObject({
      status: 403,
      body: { error: REPORT_MSG.accountSuspended(until), code: 'accountSuspended', until },
    });
    expect(refused.body.token).toBeUndefined();
    expect(REPORT_MSG.accountSuspended(until)).toMatch(
      /^Your account is suspended until [A-Z][a-z]+ \d{1,2}, \d{4}\.$/,
    );
    expect((await login(user.email, 'wrong-password')).status).toBe(401);

    // A session that exists despite the suspension (minted as it committed) is refused by the check itself.
    const { token } = await createSession(server.deps.db, user.id, clock.now());
    expect((await server.get('/api/auth/me', token)).status).toBe(401);
    const racing = await WsClient.open(server);
    sockets.push(racing);
    racing.send({ type: 'hello', v: PROTOCOL_VERSION, token });
    expect(await racing.waitClose()).toBe(CLOSE_CODES.unauthorized);
    expect(racing.frames.some((f) => f.type === 'welcome')).toBe(false);

    // The reporter is untouched.
    expect((await server.get('/api/auth/me', reporter.token)).status).toBe(200);

    // When the period ends the account signs in again.
    clock.advance(14 * DAY + 1);
    expect((await login(user.email)).status).toBe(200);
  });

  it('a permanent suspension says so and never ends', async () => {
    const { user, id } = await reported('Perm');
    const res = await decide(server, admin, id, { decision: 'suspend_account', days: 'permanent' });
    expect(res.body).toMatchObject({
      decision: { decision: 'suspend_account', days: null, until: PERMANENT_SUSPENSION_UNTIL },
    });
    expect((await server.get('/api/auth/me', user.token)).status).toBe(401);
    clock.advance(400 * DAY);
    expect(await login(user.email)).toMatchObject({
      status: 403,
      body: { error: 'Your account has been suspended.' },
    });
  });
});
