import { Hono } from 'hono';
import {
  OTP_RESEND_COOLDOWN_MS,
  SERVER_MSG,
  loginBody,
  requestPasswordResetBody,
  resendWaitMessage,
  resetPasswordBody,
  signupBody,
  verifyOtpBody,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { clientIp } from '../../lib/client-ip';
import { readBody } from '../../lib/validate';
import { RateLimiter } from '../../lib/rate-limit';
import { LoginThrottle } from '../../lib/login-throttle';
import { HttpError } from '../../lib/http-error';
import { selfUser } from '../../lib/auth/access';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { invalidateSession } from '../../lib/auth/sessions';
import { findUserById } from '../users';
import * as auth from './service';

export function authRoutes(deps: AppDeps) {
  const r = deps.rateRules;
  const limit = (rule: typeof r.loginPerIp) => new RateLimiter(rule, deps.now);
  const loginIp = limit(r.loginPerIp);
  const loginFailures = new LoginThrottle(
    { failuresPerEmailIp: r.loginFailuresPerEmailIp, delayPerEmail: r.loginDelayPerEmail },
    deps.now,
  );
  const signupIp = limit(r.signupPerIp);
  const signupEmail = limit(r.signupPerEmail);
  const verifyIp = limit(r.verifyPerIp);
  const resetRequestIp = limit(r.resetRequestPerIp);
  const resetRequestEmail = limit(r.resetRequestPerEmail);
  // Applied to every address alike, known or not, so the cooldown cannot reveal who has an account.
  const resetCooldown = limit({ limit: 1, windowMs: OTP_RESEND_COOLDOWN_MS });
  const resetIp = limit(r.resetPerIp);

  return (
    new Hono<AuthEnv>()
      .post('/signup', async (c) => {
        signupIp.consume(clientIp(c));
        const body = await readBody(c, signupBody);
        signupEmail.consume(body.email);
        await auth.startSignup(deps, body);
        return c.json({ message: SERVER_MSG.otpSent });
      })
      .post('/verify-otp', async (c) => {
        verifyIp.consume(clientIp(c));
        const body = await readBody(c, verifyOtpBody);
        return c.json(await auth.verifySignup(deps, body), 201);
      })
      .post('/login', async (c) => {
        const ip = clientIp(c);
        loginIp.consume(ip);
        const body = await readBody(c, loginBody);
        const result = await loginFailures.attempt(
          body.email,
          ip,
          () => auth.login(deps, body),
          (error) => error instanceof HttpError && error.status === 401,
        );
        return result.kind === 'ok' ? c.json(result.body) : c.json(result.body, 403);
      })
      .post('/request-password-reset', async (c) => {
        resetRequestIp.consume(clientIp(c));
        const body = await readBody(c, requestPasswordResetBody);
        resetRequestEmail.consume(body.email);
        const waitMs = resetCooldown.hit(body.email);
        if (waitMs > 0) return c.json({ error: resendWaitMessage(Math.ceil(waitMs / 1000)) }, 429);
        await auth.requestPasswordReset(deps, body.email);
        return c.json({ message: SERVER_MSG.resetRequested });
      })
      .post('/reset-password', async (c) => {
        resetIp.consume(clientIp(c));
        const body = await readBody(c, resetPasswordBody);
        await auth.resetPassword(deps, body);
        return c.json({ message: SERVER_MSG.passwordReset });
      })
      // The user as shown to themselves: their access level and, when rejected, the reason.
      .get('/me', requireUser(deps), async (c) => {
        const row = await findUserById(deps.db, c.get('user').id);
        if (!row) throw new HttpError(401, SERVER_MSG.unauthorized);
        return c.json(selfUser(row, deps.config.verificationPolicy));
      })
      .post('/logout', requireUser(deps), async (c) => {
        await invalidateSession(deps, c.get('session').id);
        return c.json({ message: SERVER_MSG.loggedOut });
      })
  );
}
