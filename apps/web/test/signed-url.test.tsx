import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useSignedUrl } from '../src/features/chat/useSignedUrl';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { PlatformProvider } from '../src/platform';
import { fakePlatform, mockServer } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const KEY = '0123456789abcdef0123456789abcdef';

describe('signed attachment URLs', () => {
  it('asks for a new URL a minute before the signed one expires, while the message stays on screen', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let signs = 0;
    mockServer({
      'POST /api/files/sign': () => {
        signs += 1;
        const exp = Math.floor(Date.now() / 1000) + 3600;
        return { status: 200, body: { urls: { [KEY]: `/files/${KEY}?exp=${exp}&sig=s${signs}` } } };
      },
    });
    const api = createApiClient({ baseUrl: '', getToken: () => 'token-test' });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PlatformProvider platform={fakePlatform()}>
        <ApiProvider api={api}>{children}</ApiProvider>
      </PlatformProvider>
    );
    const { result } = renderHook(() => useSignedUrl(`/files/${KEY}`), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current).toContain('sig=s1');

    await act(() => vi.advanceTimersByTimeAsync(58 * 60_000));
    expect(result.current).toContain('sig=s1');
    await act(() => vi.advanceTimersByTimeAsync(60_000 + 10));
    expect(result.current).toContain('sig=s2');
    expect(signs).toBe(2);
  });
});
