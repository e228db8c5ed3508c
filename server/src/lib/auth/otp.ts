import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH } from '@campus/protocol';

export function generateOtp(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/**
 * Codes are stored as an HMAC keyed by the server secret and bound to purpose and address: a plain hash of
 * six digits would fall to a million guesses, the keyed one does not without the secret.
 */
export function hashOtp(secret: Buffer, purpose: string, email: string, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}\0${email}\0${code}`).digest('hex');
}

export function otpMatches(
  secret: Buffer,
  purpose: string,
  email: string,
  code: string,
  storedHash: string,
): boolean {
  const candidate = Buffer.from(hashOtp(secret, purpose, email, code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}
