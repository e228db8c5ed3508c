import { CLIENT_CONFIG_PATH, clientConfigSchema, isHttpOrigin } from '@campus/protocol';

/** How long one request for the server's client config may take, body included. */
export const FILE_ORIGINS_TIMEOUT_MS = 5_000;
/** How long a window waits for that answer before it opens with what is cached. */
export const FILE_ORIGINS_WAIT_MS = 1_500;
/** The real answer is a few dozen bytes: a server that sends more is not read to the end. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * The entries of a client-config answer that may go into the CSP and the frame guard: bare http(s)
 * origins only, each exactly as `new URL(x).origin` writes it, so a hostile or broken server cannot inject a
 * directive (a quote, a semicolon, `*`) or widen one with a path or another scheme. `null` when the answer is
 * not a client config at all.
 */
export function fileOriginsFrom(body: unknown): string[] | null {
  const parsed = clientConfigSchema.safeParse(body);
  if (!parsed.success) return null;
  return [...new Set(parsed.data.fileOrigins.filter(isHttpOrigin))];
}

/** Reads at most `limit` bytes of a body; more is a refusal, not a truncation (it would not parse anyway). */
async function readCapped(response: Response, limit: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Asks the configured server for its file origins (`GET /api/client-config`): Node's fetch in the main
 * process, so no cookies, no token and no renderer involved. Redirects are refused: the answer must come from
 * the server the user configured. `null` on any failure (offline, timeout, an older server without the
 * endpoint, an answer that is not a client config).
 */
export async function fetchFileOrigins(
  serverUrl: string,
  timeoutMs = FILE_ORIGINS_TIMEOUT_MS,
): Promise<string[] | null> {
  let base: URL;
  try {
    base = new URL(serverUrl);
  } catch {
    return null;
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return null;
  try {
    // The renderer's API client joins the same way (base URL, then the path), so a server under a path works.
    const response = await fetch(`${serverUrl.replace(/\/+$/, '')}${CLIENT_CONFIG_PATH}`, {
      headers: { Accept: 'application/json' },
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const text = await readCapped(response, MAX_BODY_BYTES);
    return text === null ? null : fileOriginsFrom(JSON.parse(text));
  } catch {
    return null;
  }
}

export interface FileOriginsCache {
  /** The origins last learnt from this server; empty until one answer arrived. Never waits. */
  get(serverUrl: string): readonly string[];
  /**
   * Asks the server again (one request at a time per server) and resolves with the cached origins once it
   * answered. A failure keeps what was cached: the bucket rarely moves, and a server that is down for a
   * moment should not take the images away. Never rejects.
   */
  refresh(serverUrl: string): Promise<readonly string[]>;
  /** `refresh`, but waits at most `waitMs`: a window never waits long for a slow server. */
  refreshWithin(serverUrl: string, waitMs?: number): Promise<readonly string[]>;
}

export interface FileOriginsOptions {
  timeoutMs?: number;
  waitMs?: number;
}

/**
 * The file origins per server URL, kept in memory. The CSP is built per app:// request from `get`, so an
 * answer that arrives after a window opened reaches the next document the app serves.
 */
export function createFileOriginsCache(options: FileOriginsOptions = {}): FileOriginsCache {
  const timeoutMs = options.timeoutMs ?? FILE_ORIGINS_TIMEOUT_MS;
  const defaultWaitMs = options.waitMs ?? FILE_ORIGINS_WAIT_MS;
  const known = new Map<string, readonly string[]>();
  const pending = new Map<string, Promise<readonly string[]>>();

  const get = (serverUrl: string): readonly string[] => known.get(serverUrl) ?? [];

  function refresh(serverUrl: string): Promise<readonly string[]> {
    const inFlight = pending.get(serverUrl);
    if (inFlight) return inFlight;
    const request = fetchFileOrigins(serverUrl, timeoutMs)
      .then((origins) => {
        if (origins) known.set(serverUrl, Object.freeze(origins));
        return get(serverUrl);
      })
      .finally(() => pending.delete(serverUrl));
    pending.set(serverUrl, request);
    return request;
  }

  async function refreshWithin(serverUrl: string, waitMs = defaultWaitMs): Promise<readonly string[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<readonly string[]>((resolve) => {
      timer = setTimeout(() => resolve(get(serverUrl)), waitMs);
    });
    try {
      return await Promise.race([refresh(serverUrl), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  return { get, refresh, refreshWithin };
}
