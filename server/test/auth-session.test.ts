import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, SERVER_MSG } from '@campus/protocol';
import { startSmtpReceiver } from './support/smtp-receiver';
import { startTestServer, testClock, type TestServer } from './support/test-server';

const clock = testClock();
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({ now: clock.now, config: { smtpUrl: smtp.url } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

async function createAccount(email: string, password = 'secret12'): Promise<string> {
  await server.post('/api/auth/signup', {
    firstName: 'Leo',
    lastName: 'Ng',
    email,
    password,
    phoneNumber: '',
  });
  const res = await server.post('/api/auth/verify-otp', { email, otpCode: await smtp.codeFor(email) });
  expect(res.status).toBe(201);
  return res.body.token as string;
}
const login = (email: string, password: string) => server.post('/api/auth/login', { email, password });

describe('login, logout and password reset', () => {
  it('logs in with the right password and refuses a wrong one or an unknown address alike', async () => {
    await createAccount('leo@uni.edu');
    const ok = await login('LEO@uni.edu', 'secret12');
    expect(ok.status).toBe(200);
    expect(ok.body.token).toEqual(expect.any(String));
    const wrong = await login('leo@uni.edu', 'nope-nope');
    const unknown = await login('nobody@uni.edu', 'nope-nope');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect((await login('', '')).body.error).toBe(MSG.loginRequired);
  });

  it('logout revokes the token', async () => {
    const token = (await login('leo@uni.edu', 'secret12')).body.token as string;
    expect((await server.get('/api/auth/me', token)).status).toBe(200);
    expect((await server.post('/api/auth/logout', {}, token)).status).toBe(200);
    const after = await server.get('/api/auth/me', token);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe(SERVER_MSG.unauthorized);
  });

  it('refuses requests without a token or with a forged one', async () => {
    expect((await server.get('/api/auth/me')).status).toBe(401);
    expect((await server.get('/api/auth/me', 'a'.repeat(32))).status).toBe(401);
  });

  it('a password reset changes the password and revokes every old session', async () => {
    const sessionA = (await login('leo@uni.edu', 'secret12')).body.token as string;
    const sessionB = (await login('leo@uni.edu', 'secret12')).body.token as string;
    const before = smtp.count('leo@uni.edu');
    const requested = await server.post('/api/auth/request-password-reset', { email: 'leo@uni.edu' });
    expect(requested.status).toBe(200);
    expect(requested.body.message).toBe(SERVER_MSG.resetRequested);
    await smtp.waitForCount('leo@uni.edu', before);
    const code = /Subject: (\d{6}) is your Campus Talk password reset code/.exec(smtp.mails.at(-1)!.raw)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const mismatch = await server.post('/api/auth/reset-password', {
      email: 'leo@uni.edu',
      otpCode: code,
      newPassword: '123',
    });
    expect(mismatch.body.error).toBe(MSG.newPasswordTooShort);
    const reset = await server.post('/api/auth/reset-password', {
      email: 'leo@uni.edu',
      otpCode: code,
      newPassword: 'brand-new-pass',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe(SERVER_MSG.passwordReset);

    expect((await server.get('/api/auth/me', sessionA)).status).toBe(401);
    expect((await server.get('/api/auth/me', sessionB)).status).toBe(401);
    expect((await login('leo@uni.edu', 'secret12')).status).toBe(401);
    expect((await login('leo@uni.edu', 'brand-new-pass')).status).toBe(200);
  });

  it('answers a reset request for an unknown address exactly like a known one, and mails nobody', async () => {
    const total = smtp.mails.length;
    const unknown = await server.post('/api/auth/request-password-reset', { email: 'ghost@uni.edu' });
    clock.advance(61_000);
    const known = await server.post('/api/auth/request-password-reset', { email: 'leo@uni.edu' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await smtp.waitForCount('leo@uni.edu', smtp.count('leo@uni.edu') - 1);
    expect(smtp.mails.slice(total).every((m) => !m.to.includes('ghost@uni.edu'))).toBe(true);
  });

  it('keeps the reset cooldown the same for known and unknown addresses', async () => {
    clock.advance(61_000);
    await server.post('/api/auth/request-password-reset', { email: 'leo@uni.edu' });
    await server.post('/api/auth/request-password-reset', { email: 'ghost2@uni.edu' });
    const known = await server.post('/api/auth/request-password-reset', { email: 'leo@uni.edu' });
    const unknown = await server.post('/api/auth/request-password-reset', { email: 'ghost2@uni.edu' });
    expect(known.status).toBe(429);
    expect(unknown.status).toBe(429);
    expect(known.body).toEqual(unknown.body);
  });

  it('a rejected document answers 403 with the spec message and still hands out a session', async () => {
    await createAccount('rejected@uni.edu');
    await server.deps.db
      .updateTable('users')
      .set({ document_status: 'rejected' })
      .where('email', '=', 'rejected@uni.edu')
      .execute();
    const res = await login('rejected@uni.edu', 'secret12');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(MSG.documentRejected);
    expect((await server.get('/api/auth/me', res.body.token as string)).status).toBe(200);
  });

  it('expires sessions after 30 days without use and slides them when used', async () => {
    const token = (await login('leo@uni.edu', 'brand-new-pass')).body.token as string;
    clock.advance(20 * 24 * 3600_000);
    expect((await server.get('/api/auth/me', token)).status).toBe(200); // slides to day 50
    clock.advance(25 * 24 * 3600_000);
    expect((await server.get('/api/auth/me', token)).status).toBe(200);
    clock.advance(31 * 24 * 3600_000);
    expect((await server.get('/api/auth/me', token)).status).toBe(401);
  });

  it('stores only hashes of session tokens and codes', async () => {
    const token = (await login('leo@uni.edu', 'brand-new-pass')).body.token as string;
    const sessions = await server.deps.db.selectFrom('sessions').select('id').execute();
    expect(sessions.some((s) => s.id === token)).toBe(false);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.id))).toBe(true);
    const codes = await server.deps.db.selectFrom('one_time_codes').select('code_hash').execute();
    expect(codes.every((c) => /^[0-9a-f]{64}$/.test(c.code_hash))).toBe(true);
  });
});
