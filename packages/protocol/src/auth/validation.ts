import { MIN_PASSWORD_LENGTH, OTP_LENGTH } from '../constants';
import { MSG } from '../messages';

/** A pragmatic address check: something@something.tld, no spaces. The server re-checks the same way. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const OTP_RE = new RegExp(`^\\d{${OTP_LENGTH}}$`);

export function isValidEmail(email: string): boolean {
  return EMAIL_RE.test(email.trim());
}

export function isValidOtp(code: string): boolean {
  return OTP_RE.test(code.trim());
}

/** The full name is split at the first space: 'Ana Maria Lopez' → 'Ana' + 'Maria Lopez'. */
export function splitName(fullName: string): { firstName: string; lastName: string } {
  const trimmed = fullName.trim().replace(/\s+/g, ' ');
  const space = trimmed.indexOf(' ');
  if (space === -1) return { firstName: trimmed, lastName: '' };
  return { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1) };
}

/** Each validator answers the first problem in the spec's wording, or null when the input is fine. */
export function validateLogin(input: { email: string; password: string }): string | null {
  if (!input.email.trim() || !input.password) return MSG.loginRequired;
  return null;
}

export function validateSignup(input: { fullName: string; email: string; password: string }): string | null {
  if (!input.fullName.trim() || !input.email.trim() || !input.password) return MSG.signupRequired;
  if (!isValidEmail(input.email)) return MSG.invalidEmail;
  if (input.password.length < MIN_PASSWORD_LENGTH) return MSG.passwordTooShort;
  return null;
}

export function validateOtp(code: string): string | null {
  return isValidOtp(code) ? null : MSG.invalidOtp;
}

export function validateForgotRequest(email: string): string | null {
  return isValidEmail(email) ? null : MSG.invalidEmail;
}

export function validateReset(input: {
  email: string;
  otpCode: string;
  newPassword: string;
  confirmPassword: string;
}): string | null {
  if (!isValidEmail(input.email)) return MSG.invalidEmail;
  if (!isValidOtp(input.otpCode)) return MSG.invalidOtp;
  if (input.newPassword.length < MIN_PASSWORD_LENGTH) return MSG.newPasswordTooShort;
  if (input.newPassword !== input.confirmPassword) return MSG.newPasswordsMismatch;
  return null;
}
