import { z } from 'zod';
import {
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  OTP_LENGTH,
} from '../constants';
import { MSG } from '../messages';
import { userSchema } from '../entities/user';
import { hasVisibleText, stripNameControls } from '../names';

/** E-mail addresses are compared and stored lowercased and trimmed. */
const email = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .max(MAX_EMAIL_LENGTH, { error: MSG.invalidEmail })
    .pipe(z.email({ error: message }));

const otpCode = z
  .string({ error: MSG.invalidOtp })
  .trim()
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), { error: MSG.invalidOtp });

/**
 * A person's name is shown beside every message they send: direction controls ('\u202E' reorders what
 * follows) and blank fillers are stripped, as for nicknames and group names (names.ts).
 */
const personName = () => z.string({ error: MSG.signupRequired }).overwrite(stripNameControls).trim();
const nameTooLong = `Name must be at most ${MAX_NAME_LENGTH} characters.`;

export const signupBody = z.object({
  // A first name that shows nothing (only invisible characters) is no name: the spec's 'required' answer.
  firstName: personName()
    .min(1, { error: MSG.signupRequired })
    .max(MAX_NAME_LENGTH, { error: nameTooLong })
    .refine(hasVisibleText, { error: MSG.signupRequired }),
  // The last name may be left out; one that shows nothing is stored as left out.
  lastName: personName()
    .max(MAX_NAME_LENGTH, { error: nameTooLong })
    .overwrite((name) => (hasVisibleText(name) ? name : ''))
    .default(''),
  email: z
    .string({ error: MSG.signupRequired })
    .trim()
    .min(1, { error: MSG.signupRequired })
    .pipe(email(MSG.invalidEmail)),
  password: z
    .string({ error: MSG.signupRequired })
    .min(1, { error: MSG.signupRequired })
    .min(MIN_PASSWORD_LENGTH, { error: MSG.passwordTooShort })
    .max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` }),
  phoneNumber: z.string().trim().max(32).optional().default(''),
});
export type SignupBody = z.input<typeof signupBody>;

export const verifyOtpBody = z.object({
  email: email(MSG.invalidEmail),
  otpCode,
});
export type VerifyOtpBody = z.input<typeof verifyOtpBody>;

export const loginBody = z.object({
  email: z.string({ error: MSG.loginRequired }).trim().toLowerCase().min(1, { error: MSG.loginRequired }),
  password: z
    .string({ error: MSG.loginRequired })
    .min(1, { error: MSG.loginRequired })
    .max(MAX_PASSWORD_LENGTH, { error: MSG.loginFailed }),
});
export type LoginBody = z.input<typeof loginBody>;

export const requestPasswordResetBody = z.object({ email: email(MSG.invalidEmail) });
export type RequestPasswordResetBody = z.input<typeof requestPasswordResetBody>;

export const resetPasswordBody = z.object({
  email: email(MSG.invalidEmail),
  otpCode,
  newPassword: z
    .string({ error: MSG.newPasswordTooShort })
    .min(MIN_PASSWORD_LENGTH, { error: MSG.newPasswordTooShort })
    .max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` }),
});
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

/** 201 from verify-otp, 200 from login; a rejected document's 403 also carries the session. */
export const authResponse = z.object({ token: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponse>;

export const rejectedLoginResponse = authResponse.extend({ error: z.string() });

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

/** Error bodies: `{ error }`, or the express-validator style `{ errors: [{ msg }] }` the spec also reads. */
export const errorResponse = z.object({
  error: z.string().optional(),
  errors: z.array(z.object({ msg: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** The text to show for an error body: `error`, else the first `errors[].msg`, else undefined. */
export function errorText(body: unknown): string | undefined {
  const parsed = errorResponse.safeParse(body);
  if (!parsed.success) return undefined;
  return parsed.data.error ?? parsed.data.errors?.[0]?.msg;
}
