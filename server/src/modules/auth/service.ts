import { MSG, REPORT_MSG, SERVER_MSG, type AuthResponse, type User } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { HttpError } from '../../lib/http-error';
import { selfUser } from '../../lib/auth/access';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/auth/password';
import { accountSuspension, createSession, invalidateUserSessions } from '../../lib/auth/sessions';
import { resetCodeMail, signupAttemptMail, signupCodeMail } from '../../lib/mail/templates';
import { findUserByEmail, insertUser, setPasswordHash, setUserRole, touchLastActive } from '../users';
import { academicDomainOf } from '../verification';
import { assertResendAllowed, checkCode, issueCode, refuseAsWrongCode } from './codes';
import { deleteCode } from './codes-repo';

interface PendingSignup {
  firstName: string;
  lastName: string;
  phoneNumber: string;
  passwordHash: string;
}

/**
 * Starts a sign-up, answering the same whether or not the address has an account: same status and body,
 * the same work (a password hash, a stored code, one mail awaited), so neither the answer nor its timing
 * tells. A new address gets its code; the owner of a taken one gets a note instead, and the code stored
 * for it is never mailed, so the verify step fails for it like any wrong code.
 */
export async function startSignup(
  deps: AppDeps,
  input: { firstName: string; lastName: string; email: string; password: string; phoneNumber: string },
): Promise<void> {
  const taken = (await findUserByEmail(deps.db, input.email)) !== undefined;
  await assertResendAllowed(deps, 'signup', input.email);
  // The account only exists once the code is verified; until then its details wait beside the code.
  const pending: PendingSignup = {
    firstName: input.firstName,
    lastName: input.lastName,
    phoneNumber: input.phoneNumber,
    passwordHash: await hashPassword(input.password),
  };
  const code = await issueCode(deps, 'signup', input.email, taken ? null : JSON.stringify(pending));
  const mail = taken
    ? signupAttemptMail(input.email, deps.config.publicUrl)
    : signupCodeMail(input.email, input.firstName, code);
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    deps.log.error({ err: error }, 'signup mail failed');
    await deleteCode(deps.db, 'signup', input.email);
    throw new HttpError(502, MSG.otpSendFailed);
  }
}

export async function verifySignup(
  deps: AppDeps,
  input: { email: string; otpCode: string },
): Promise<AuthResponse> {
  const row = await checkCode(deps, 'signup', input.email, input.otpCode);
  // Looked up before the account's transaction (it may load the college catalog once).
  const academicDomain = await academicDomainOf(deps.transactor, input.email, deps.log);
  const now = deps.now();
  const created = await deps.db.transaction().execute(async (trx) => {
    // A taken address (its code was never mailed, so only a guess gets here): no second account.
    if (row.payload === null || (await findUserByEmail(trx, input.email))) return undefined;
    const pending = JSON.parse(row.payload) as PendingSignup;
    const user = await insertUser(
      trx,
      {
        email: input.email,
        passwordHash: pending.passwordHash,
        firstName: pending.firstName,
        lastName: pending.lastName,
        phoneNumber: pending.phoneNumber,
        role: deps.config.adminEmails.has(input.email) ? 'admin' : 'user',
        academicDomain,
      },
      now,
    );
    await deleteCode(trx, 'signup', input.email);
    const { token } = await createSession(trx, user.id, now);
    return { token, user: selfUser(user, deps.config.verificationPolicy) };
  });
  // Answered as a wrong code, so even a lucky guess learns nothing about the address.
  if (!created) return refuseAsWrongCode(deps, 'signup', input.email);
  return created;
}

export type LoginResult =
  { kind: 'ok'; body: AuthResponse } | { kind: 'rejected'; body: AuthResponse & { error: string } };

export async function login(deps: AppDeps, input: { email: string; password: string }): Promise<LoginResult> {
  const row = await findUserByEmail(deps.db, input.email);
  if (!row) {
    await burnPasswordCheck(input.password);
    throw new HttpError(401, SERVER_MSG.invalidCredentials);
  }
  if (!(await verifyPassword(row.password_hash, input.password)))
    throw new HttpError(401, SERVER_MSG.invalidCredentials);
  const now = deps.now();
  // Only after the password: a suspension is told to the account's owner, not to whoever types the address.
  const suspendedUntil = await accountSuspension(deps.db, row.id, now);
  if (suspendedUntil)
    throw new HttpError(403, REPORT_MSG.accountSuspended(suspendedUntil), {
      code: 'accountSuspended',
      until: suspendedUntil,
    });
  // ADMIN_EMAILS is the operator's word: it promotes on every login, so adding an address needs no migration.
  if (deps.config.adminEmails.has(row.email) && row.role !== 'admin') {
    await setUserRole(deps.db, row.id, 'admin');
    row.role = 'admin';
    if (row.document_status !== 'verified') row.document_status = 'not_required';
  }
  await touchLastActive(deps.db, row.id, now);
  row.last_active_at = new Date(now).toISOString();
  const { token } = await createSession(deps.db, row.id, now);
  const user: User = selfUser(row, deps.config.verificationPolicy);
  // A rejected student still gets a session, so the upload-again button can reach the upload page.
  if (user.documentStatus === 'rejected')
    return { kind: 'rejected', body: { error: MSG.documentRejected, token, user } };
  return { kind: 'ok', body: { token, user } };
}

/**
 * Answers the same whether or not the address has an account; the mail goes out in the background so
 * the response time does not tell either.
 */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const code = await issueCode(deps, 'reset', email, null);
  deps.mailer.send(resetCodeMail(email, code)).catch((error: unknown) => {
    deps.log.error({ err: error }, 'password reset mail failed');
  });
}

export async function resetPassword(
  deps: AppDeps,
  input: { email: string; otpCode: string; newPassword: string },
): Promise<void> {
  await checkCode(deps, 'reset', input.email, input.otpCode);
  const user = await findUserByEmail(deps.db, input.email);
  if (!user) throw new HttpError(400, SERVER_MSG.otpMissing);
  const passwordHash = await hashPassword(input.newPassword);
  // Whoever knew the old password may hold a session: a reset ends them all, live sockets included.
  await invalidateUserSessions(deps, user.id, async (trx) => {
    await setPasswordHash(trx, user.id, passwordHash);
    await deleteCode(trx, 'reset', input.email);
  });
}
