import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, OTP_TTL_MS, SERVER_MSG, userSchema } from '@campus/protocol';
import { hashOtp } from '../src/lib/auth/otp';
import { startSmtpReceiver } from './support/smtp-receiver';
import { startTestServer, testClock, type TestServer } from './support/test-server';

const clock = testClock();
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({
    now: clock.now,
    // This suite signs up many addresses from one IP; the limits themselves are tested in auth-limits.
    rateRules: { signupPerIp: { limit: 1000, windowMs: 60_000 } },
    config: { smtpUrl: smtp.url, adminEmails: new Set(['dean@uni.edu']) },
  });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

const signup = (email: string, extra: Record<string, string> = {}) =>
  server.post('/api/auth/signup', {
    firstName: 'Mina',
    lastName: 'Park',
    email,
    password: 'secret12',
    phoneNumber: '',
    ...extra,
  });

describe('signup with a mailed one-time code', () => {
  it('signs up, verifies the code from the received mail (201) and reads /me', async () => {
    const res = await signup('Mina@Uni.edu');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(SERVER_MSG.otpSent);
    const code = await smtp.codeFor('mina@uni.edu');

    const verified = await server.post('/api/auth/verify-otp', { email: 'mina@uni.edu', otpCode: code });
    expect(verified.status).toBe(201);
    const token = verified.body.token as string;
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    const user = userSchema.parse(verified.body.user);
    expect(user).toMatchObject({
      firstName: 'Mina',
      lastName: 'Park',
      email: 'mina@uni.edu',
      role: 'user',
      documentStatus: 'pending_submission',
    });
    expect(JSON.stringify(verified.body)).not.toMatch(/password|argon2/i);

    const me = await server.get('/api/auth/me', token);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);

    // The code is single-use.
    const again = await server.post('/api/auth/verify-otp', { email: 'mina@uni.edu', otpCode: code });
    expect(again.status).toBe(400);
  });

  it('answers a taken address exactly as a new one, and mails its owner instead of a code', async () => {
    const fresh = await signup('brand-new@uni.edu');
    const before = smtp.count('mina@uni.edu');
    const taken = await signup('MINA@uni.edu', { firstName: 'Other', password: 'attacker1' });
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual(fresh.body);
    expect(taken.headers.get('content-length')).toBe(fresh.headers.get('content-length'));

    await smtp.waitForCount('mina@uni.edu', before);
    const raw = smtp.mails
      .filter((m) => m.to.includes('mina@uni.edu'))
      .at(-1)!
      .raw.replace(/=\r?\n/g, '');
    expect(raw).toMatch(/Subject: Someone tried to sign up to Campus Talk with your address/);
    expect(raw).toContain('reset your password');
    expect(raw).toContain('/login');
    expect(raw).not.toMatch(/Your code: \d{6}/);
  });

  it('verifying a taken address answers as a wrong code and makes no second account', async () => {
    await signup('taken@uni.edu');
    const code = await smtp.codeFor('taken@uni.edu');
    expect(
      (await server.post('/api/auth/verify-otp', { email: 'taken@uni.edu', otpCode: code })).status,
    ).toBe(201);
    clock.advance(61_000); // past the resend cooldown
    expect((await signup('taken@uni.edu', { password: 'attacker1' })).status).toBe(200);

    const wrong = await server.post('/api/auth/verify-otp', { email: 'taken@uni.edu', otpCode: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe(`${SERVER_MSG.otpWrong} 4 attempts left.`);
    // Even the code that was stored (never mailed), guessed: the same answer, the next attempt counted.
    await server.deps.db
      .updateTable('one_time_codes')
      .set({ code_hash: hashOtp(server.deps.secret, 'signup', 'taken@uni.edu', '424242') })
      .where('email', '=', 'taken@uni.edu')
      .execute();
    const lucky = await server.post('/api/auth/verify-otp', { email: 'taken@uni.edu', otpCode: '424242' });
    expect(lucky.status).toBe(400);
    expect(lucky.body.error).toBe(`${SERVER_MSG.otpWrong} 3 attempts left.`);

    const accounts = await server.deps.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'taken@uni.edu')
      .execute();
    expect(accounts).toHaveLength(1);
    // The owner's password still works; the attacker's never did.
    expect(
      (await server.post('/api/auth/login', { email: 'taken@uni.edu', password: 'secret12' })).status,
    ).toBe(200);
    expect(
      (await server.post('/api/auth/login', { email: 'taken@uni.edu', password: 'attacker1' })).status,
    ).toBe(401);
  });

  it('locks the code after 5 wrong tries, even for the right code', async () => {
    await signup('lock@uni.edu');
    const code = await smtp.codeFor('lock@uni.edu');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const res = await server.post('/api/auth/verify-otp', { email: 'lock@uni.edu', otpCode: wrong });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(`${5 - i} attempt`);
    }
    const fifth = await server.post('/api/auth/verify-otp', { email: 'lock@uni.edu', otpCode: wrong });
    expect(fifth.status).toBe(429);
    expect(fifth.body.error).toBe(SERVER_MSG.otpLocked);
    const right = await server.post('/api/auth/verify-otp', { email: 'lock@uni.edu', otpCode: code });
    expect(right.status).toBe(429);
    expect(right.body.error).toBe(SERVER_MSG.otpLocked);
  });

  it('refuses an expired code', async () => {
    await signup('late@uni.edu');
    const code = await smtp.codeFor('late@uni.edu');
    clock.advance(OTP_TTL_MS + 1000);
    const res = await server.post('/api/auth/verify-otp', { email: 'late@uni.edu', otpCode: code });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(SERVER_MSG.otpExpired);
  });

  it('enforces the 60 s resend cooldown, and a resent code replaces the old one', async () => {
    await signup('again@uni.edu');
    const first = await smtp.codeFor('again@uni.edu');
    const sent = smtp.count('again@uni.edu');

    clock.advance(30_000);
    const tooSoon = await signup('again@uni.edu');
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.error).toBe('Please wait 30 seconds before requesting a new code.');
    expect(tooSoon.headers.get('retry-after')).toBe('30');

    clock.advance(31_000);
    expect((await signup('again@uni.edu')).status).toBe(200);
    await smtp.waitForCount('again@uni.edu', sent);
    const second = await smtp.codeFor('again@uni.edu');
    if (second !== first) {
      const old = await server.post('/api/auth/verify-otp', { email: 'again@uni.edu', otpCode: first });
      expect(old.status).toBe(400);
    }
    expect(
      (await server.post('/api/auth/verify-otp', { email: 'again@uni.edu', otpCode: second })).status,
    ).toBe(201);
  });

  it('answers the spec messages for invalid bodies', async () => {
    expect(
      (await server.post('/api/auth/signup', { email: 'a@b.co', password: 'secret12' })).body.error,
    ).toBe(MSG.signupRequired);
    expect((await signup('not-an-email')).body.error).toBe(MSG.invalidEmail);
    expect((await signup('short@uni.edu', { password: '12345' })).body.error).toBe(MSG.passwordTooShort);
    const otp = await server.post('/api/auth/verify-otp', { email: 'a@uni.edu', otpCode: '12ab56' });
    expect(otp.status).toBe(400);
    expect(otp.body.error).toBe(MSG.invalidOtp);
    const notJson = await server.call('POST', '/api/auth/login', undefined);
    expect(notJson.status).toBe(400);
  });

  it("refuses an invisible first name with the 'required' wording, and strips direction controls", async () => {
    const blank = await signup('blank@uni.edu', { firstName: '\u200B' });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe(MSG.signupRequired);

    expect((await signup('bidi@uni.edu', { firstName: '\u202EMina', lastName: 'Pa\u2066rk' })).status).toBe(
      200,
    );
    const code = await smtp.codeFor('bidi@uni.edu');
    const res = await server.post('/api/auth/verify-otp', { email: 'bidi@uni.edu', otpCode: code });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ firstName: 'Mina', lastName: 'Park' });
  });

  it('makes addresses in ADMIN_EMAILS admins', async () => {
    await signup('dean@uni.edu');
    const code = await smtp.codeFor('dean@uni.edu');
    const res = await server.post('/api/auth/verify-otp', { email: 'dean@uni.edu', otpCode: code });
    expect(res.status).toBe(201);
    expect((res.body.user as { role: string }).role).toBe('admin');
  });
});
