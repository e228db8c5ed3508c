import {
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_COOLDOWN_MS,
  OTP_TTL_MS,
  SERVER_MSG,
  resendWaitMessage,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { HttpError } from '../../lib/http-error';
import { generateOtp, hashOtp, otpMatches } from '../../lib/auth/otp';
import {
  deleteCode,
  findCode,
  putCode,
  recordWrongAttempt,
  type CodePurpose,
  type CodeRow,
} from './codes-repo';

/** Refuses a new code while the last one for this address is younger than the cooldown. */
export async function assertResendAllowed(deps: AppDeps, purpose: CodePurpose, email: string): Promise<void> {
  const existing = await findCode(deps.db, purpose, email);
  if (!existing) return;
  const waitMs = existing.sent_at + OTP_RESEND_COOLDOWN_MS - deps.now();
  if (waitMs > 0)
    throw new HttpError(429, resendWaitMessage(Math.ceil(waitMs / 1000)), {
      retryAfter: Math.ceil(waitMs / 1000),
    });
}

/** Issues a fresh code (replacing any earlier one) and returns it in clear for the mail. */
export async function issueCode(
  deps: AppDeps,
  purpose: CodePurpose,
  email: string,
  payload: string | null,
): Promise<string> {
  const code = generateOtp();
  const now = deps.now();
  await putCode(deps.db, {
    purpose,
    email,
    codeHash: hashOtp(deps.secret, purpose, email, code),
    expiresAt: now + OTP_TTL_MS,
    sentAt: now,
    payload,
  });
  return code;
}

/**
 * Checks a submitted code. Wrong codes count; after the fifth the code is dead until a new one is sent,
 * so guessing a 6-digit code by brute force has odds of 5 in a million per mail.
 */
export async function checkCode(
  deps: AppDeps,
  purpose: CodePurpose,
  email: string,
  code: string,
): Promise<CodeRow> {
  const row = await findCode(deps.db, purpose, email);
  if (!row) throw new HttpError(400, SERVER_MSG.otpMissing);
  if (row.attempts >= OTP_MAX_ATTEMPTS) throw new HttpError(429, SERVER_MSG.otpLocked);
  if (deps.now() >= row.expires_at) {
    await deleteCode(deps.db, purpose, email);
    throw new HttpError(400, SERVER_MSG.otpExpired);
  }
  if (!otpMatches(deps.secret, purpose, email, code, row.code_hash))
    return refuseAsWrongCode(deps, purpose, email);
  return row;
}

/** Counts a wrong try and throws what a wrong code answers: the attempts left, or the lock. */
export async function refuseAsWrongCode(deps: AppDeps, purpose: CodePurpose, email: string): Promise<never> {
  const attempts = await recordWrongAttempt(deps.db, purpose, email);
  const left = OTP_MAX_ATTEMPTS - attempts;
  if (left <= 0) throw new HttpError(429, SERVER_MSG.otpLocked);
  throw new HttpError(400, `${SERVER_MSG.otpWrong} ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`);
}
