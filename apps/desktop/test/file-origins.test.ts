import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_CONFIG_PATH } from '@campus/protocol';
import {
  createFileOriginsCache,
  fetchFileOrigins,
  fileOriginsFrom,
  FILE_ORIGINS_TIMEOUT_MS,
} from '../src/main/file-origins';

const SERVER = 'https://talk.campus.example';
const BUCKET = 'https://campus-files.s3.eu-west-1.amazonaws.com';

type FetchArgs = [input: string | URL | Request, init?: RequestInit];
const fetchMock = vi.fn<(...args: FetchArgs) => Promise<Response>>();

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' }, ...init });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the client config answer', () => {
  it('keeps bare http(s) origins and drops everything else', () => {
    const hostile = [
      'https://x.example; script-src *',
      'https://x.example/path',
      "'unsafe-inline'",
      'javascript:alert(1)',
      '*',
      'https://*.example',
      "https://x'y.example",
      'HTTPS://UPPER.example',
    ];
    // At most MAX_FILE_ORIGINS (4) a time: a longer list is refused whole (below).
    for (let i = 0; i < hostile.length; i += 3) {
      expect(fileOriginsFrom({ fileOrigins: [...hostile.slice(i, i + 3), BUCKET] })).toEqual([BUCKET]);
    }
    expect(fileOriginsFrom({ fileOrigins: [BUCKET, BUCKET, 'http://127.0.0.1:9000'] })).toEqual([
      BUCKET,
      'http://127.0.0.1:9000',
    ]);
    expect(fileOriginsFrom({ fileOrigins: [] })).toEqual([]);
  });

  it('is not a client config when the shape is wrong or the list too long', () => {
    expect(fileOriginsFrom(null)).toBeNull();
    expect(fileOriginsFrom({ fileOrigins: BUCKET })).toBeNull();
    expect(fileOriginsFrom({ fileOrigins: [1] })).toBeNull();
    expect(
      fileOriginsFrom({ fileOrigins: Array.from({ length: 50 }, (_, i) => `https://f${i}.example`) }),
    ).toBeNull();
  });
});

describe('fetching the file origins', () => {
  it('asks the configured server, without credentials, with a timeout, following no redirect', async () => {
    fetchMock.mockResolvedValueOnce(json({ fileOrigins: [BUCKET, "'unsafe-eval'"] }));
    expect(await fetchFileOrigins(`${SERVER}/campus/`)).toEqual([BUCKET]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`${SERVER}/campus${CLIENT_CONFIG_PATH}`);
    expect(init?.credentials).toBe('omit');
    expect(init?.redirect).toBe('error');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    expect(new Headers(init?.headers).has('authorization')).toBe(false);
  });

  it('gives up on a failure: network, HTTP error, not JSON, too large, a timeout', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    expect(await fetchFileOrigins(SERVER)).toBeNull();
    fetchMock.mockResolvedValueOnce(json({ error: 'Not found' }, { status: 404 }));
    expect(await fetchFileOrigins(SERVER)).toBeNull();
    fetchMock.mockResolvedValueOnce(new Response('<html>'));
    expect(await fetchFileOrigins(SERVER)).toBeNull();
    fetchMock.mockResolvedValueOnce(json({ fileOrigins: [BUCKET], padding: 'x'.repeat(64 * 1024) }));
    expect(await fetchFileOrigins(SERVER)).toBeNull();
    // The signal given to fetch is what ends a hung request.
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
    );
    expect(await fetchFileOrigins(SERVER, 20)).toBeNull();
    expect(FILE_ORIGINS_TIMEOUT_MS).toBe(5_000);
    // Not an http(s) server: nothing is asked.
    fetchMock.mockClear();
    expect(await fetchFileOrigins('file:///etc')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('the file origins cache', () => {
  it('is empty until the server answered, then keeps the answer per server URL', async () => {
    const cache = createFileOriginsCache();
    fetchMock.mockResolvedValueOnce(json({ fileOrigins: [BUCKET] }));
    expect(cache.get(SERVER)).toEqual([]);
    expect(await cache.refresh(SERVER)).toEqual([BUCKET]);
    expect(cache.get(SERVER)).toEqual([BUCKET]);
    // Another server has its own entry: the bucket of the old one never leaks into its CSP.
    expect(cache.get('http://localhost:8787')).toEqual([]);
  });

  it('refreshes: a new answer replaces the old, a failure keeps it', async () => {
    const cache = createFileOriginsCache();
    fetchMock.mockResolvedValueOnce(json({ fileOrigins: [BUCKET] }));
    await cache.refresh(SERVER);
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    expect(await cache.refresh(SERVER)).toEqual([BUCKET]);
    fetchMock.mockResolvedValueOnce(json({ fileOrigins: ['https://moved.example'] }));
    expect(await cache.refresh(SERVER)).toEqual(['https://moved.example']);
    fetchMock.mockResolvedValueOnce(json({ fileOrigins: [] }));
    expect(await cache.refresh(SERVER)).toEqual([]);
    expect(cache.get(SERVER)).toEqual([]);
  });

  it('sends one request at a time per server', async () => {
    const cache = createFileOriginsCache();
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const first = cache.refresh(SERVER);
    const second = cache.refresh(SERVER);
    answer(json({ fileOrigins: [BUCKET] }));
    expect(await Promise.all([first, second])).toEqual([[BUCKET], [BUCKET]]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never holds a window long: the cache after the wait, the answer lands later', async () => {
    const cache = createFileOriginsCache({ waitMs: 10 });
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    expect(await cache.refreshWithin(SERVER)).toEqual([]);
    answer(json({ fileOrigins: [BUCKET] }));
    await vi.waitFor(() => expect(cache.get(SERVER)).toEqual([BUCKET]));
    // A quick server is waited for.
    fetchMock.mockResolvedValueOnce(json({ fileOrigins: ['https://moved.example'] }));
    expect(await cache.refreshWithin(SERVER, 1_000)).toEqual(['https://moved.example']);
  });
});
