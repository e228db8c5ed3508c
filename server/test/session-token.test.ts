import { describe, expect, it } from 'vitest';
import { generateSessionToken, sessionIdFromToken } from '../src/lib/auth/session-token';

describe('session tokens', () => {
  it('are stored as the hex SHA-256 of their UTF-8 bytes, so sessions stored before still sign in', () => {
    // FIPS 180-2's "abc" vector, and a token as generateSessionToken makes them.
    expect(sessionIdFromToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    // Text is hashed as UTF-8 (é is two bytes), as createHash(…).update(token, 'utf8') did.
    expect(sessionIdFromToken('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
    const token = generateSessionToken();
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(sessionIdFromToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdFromToken(token)).not.toBe(sessionIdFromToken(generateSessionToken()));
  });
});
