import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'ok' | 'expired' | 'invalid';

/**
 * HMAC-SHA256 over "<key>\n<exp>" with a per-installation secret: the server can hand out download links
 * that work without a bearer token (an <img> cannot send one) and stop working at `exp`.
 */
export function createUrlSigner(secret: Buffer, now: () => number) {
  const mac = (key: string, exp: number) => createHmac('sha256', secret).update(`${key}\n${exp}`).digest();

  return {
    sign(key: string, ttlSeconds: number): string {
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return `/files/${key}?exp=${exp}&sig=${mac(key, exp).toString('hex')}`;
    },

    verify(key: string, expParam: string | undefined, sigParam: string | undefined): SignatureCheck {
      if (!expParam || !/^\d{1,12}$/.test(expParam) || !sigParam || !/^[0-9a-f]{64}$/.test(sigParam))
        return 'invalid';
      const exp = Number(expParam);
      const given = Buffer.from(sigParam, 'hex');
      // Constant-time, and checked before expiry so a forged link never learns anything from the answer.
      if (!timingSafeEqual(given, mac(key, exp))) return 'invalid';
      return Math.floor(now() / 1000) > exp ? 'expired' : 'ok';
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
