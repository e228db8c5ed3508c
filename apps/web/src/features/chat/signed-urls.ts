import { SIGNED_FILE_URL_TTL_SECONDS, signFilesResponseSchema } from '@campus/protocol';
import type { ApiClient } from '../../lib/api';

/** Ask again a minute before a signed URL runs out. */
const RENEW_MARGIN_MS = 60_000;

interface Entry {
  url: string;
  expiresAt: number;
}

function expiryOf(url: string, now: number): number {
  const exp = Number(new URL(url, 'http://local').searchParams.get('exp'));
  return Number.isFinite(exp) && exp > 0 ? exp * 1000 : now + SIGNED_FILE_URL_TTL_SECONDS * 1000;
}

/**
 * Signed download URLs for stable file keys, kept in memory and fetched in batches: every key asked for in
 * the same tick goes in one `POST /api/files/sign`, so a chat full of images makes one request, not one each.
 */
export class SignedUrlCache {
  private readonly entries = new Map<string, Entry>();
  private readonly waiting = new Map<string, Array<(url: string | null) => void>>();
  private scheduled = false;

  constructor(private readonly api: ApiClient) {}

  cached(key: string): string | null {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt - RENEW_MARGIN_MS > Date.now() ? entry.url : null;
  }

  /** When the cached URL for `key` should be asked for again (a minute before it runs out), if there is one. */
  renewAt(key: string): number | null {
    const entry = this.entries.get(key);
    return entry ? entry.expiresAt - RENEW_MARGIN_MS : null;
  }

  sign(key: string): Promise<string | null> {
    const hit = this.cached(key);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve) => {
      const list = this.waiting.get(key) ?? [];
      list.push(resolve);
      this.waiting.set(key, list);
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = new Map(this.waiting);
    this.waiting.clear();
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += 100) {
      const chunk = keys.slice(i, i + 100);
      let urls: Record<string, string> = {};
      try {
        urls = (await this.api.post('/api/files/sign', { keys: chunk }, signFilesResponseSchema)).urls;
      } catch {
        // Offline or refused: the view shows the file's name without a picture; it asks again next time.
      }
      const now = Date.now();
      for (const key of chunk) {
        const url = urls[key] ?? null;
        if (url) this.entries.set(key, { url, expiresAt: expiryOf(url, now) });
        for (const resolve of batch.get(key) ?? []) resolve(url);
      }
    }
  }
}

const caches = new WeakMap<ApiClient, SignedUrlCache>();

export function signedUrlCacheFor(api: ApiClient): SignedUrlCache {
  let cache = caches.get(api);
  if (!cache) {
    cache = new SignedUrlCache(api);
    caches.set(api, cache);
  }
  return cache;
}
