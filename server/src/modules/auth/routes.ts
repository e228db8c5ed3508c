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
import { HttpError } from '../../lib/http-error';
import { selfUser } from '../../lib/auth/access';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { invalidateSession } from '../../lib/auth/sessions';
import { findUserById } from '../users';
import * as auth from './service';

export function authRoutes(deps: AppDeps) {
  const r = deps.rateRules;
  const limit = (name: string, rule: typeof r.loginPerIp) => deps.rates.limiter(`auth.${name}`, rule);
  const loginIp = limit('login-ip', r.loginPerIp);
  const loginFailures = deps.rates.loginThrottle({
    failuresPerEmailIp: r.loginFailuresPerEmailIp,
    delayPerEmail: r.loginDelayPerEmail,
  });
  const signupIp = limit('signup-ip', r.signupPerIp);
  const signupEmail = limit('signup-email', r.signupPerEmail);
  const verifyIp = limit('verify-ip', r.verifyPerIp);
  const resetRequestIp = limit('reset-request-ip', r.resetRequestPerIp);
  const resetRequestEmail = limit('reset-request-email', r.resetRequestPerEmail);
  // Applied to every address alike, known or not, so the cooldown cannot reveal who has an account.
  const resetCooldown = limit('reset-cooldown', { limit: 1, windowMs: OTP_RESEND_COOLDOWN_MS });
  const resetIp = limit('reset-ip', r.resetPerIp);

  return (
    new Hono<AuthEnv>()
      .post('/signup', async (c) => {
        await signupIp.consume(clientIp(c));
        const body = await readBody(c, signupBody);
        await signupEmail.consume(body.email);
        await auth.startSignup(deps, body);
        return c.json({ message: SERVER_MSG.otpSent });
      })
      .post('/verify-otp', async (c) => {
        await verifyIp.consume(clientIp(c));
        const body = await readBody(c, verifyOtpBody);
        return c.json(await auth.verifySignup(deps, body), 201);
      })
      .post('/login', async (c) => {
        const ip = clientIp(c);
        await loginIp.consume(ip);
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
        await resetRequestIp.consume(clientIp(c));
        const body = await readBody(c, requestPasswordResetBody);
        await resetRequestEmail.consume(body.email);
        const waitMs = await resetCooldown.hit(body.email);
        if (waitMs > 0) return c.json({ error: resendWaitMessage(Math.ceil(waitMs / 1000)) }, 429);
        await auth.requestPasswordReset(deps, body.email);
        return c.json({ message: SERVER_MSG.resetRequested });
      })
      .post('/reset-password', async (c) => {
        await resetIp.consume(clientIp(c));
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
