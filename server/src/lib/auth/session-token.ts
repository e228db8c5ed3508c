import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { createHash, randomBytes } from 'node:crypto';

/**
 * Session tokens after Lucia's design: 160 random bits handed to the client; only their SHA-256 is
 * stored, so a leaked database cannot be replayed as sessions.
 */
export function generateSessionToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(20));
}

/** The hex SHA-256 of the token's UTF-8 bytes; node:crypto's native hash (every request and hello runs it). */
export function sessionIdFromToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
