import { describe, expect, it, vi } from 'vitest';
import { authResponse, messageResponse } from '@campus/protocol';
import { ApiError, createApiClient, failureText } from '../src/lib/api';
import { mockServer, student } from './helpers';

describe('the API client', () => {
  it('sends JSON with the bearer token to the platform server URL and parses with the protocol schema', async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ token: 't', user: student }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const api = createApiClient({ baseUrl: 'http://localhost:8787', getToken: () => 'secret' });
    const answer = await api.post('/api/auth/login', { email: 'a@b.co', password: 'x' }, authResponse);
    expect(answer.user.firstName).toBe('Alex');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://localhost:8787/api/auth/login');
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('Bearer secret');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.co', password: 'x' }));
  });

  it('sends no Authorization header without a token', async () => {
    const { calls } = mockServer({ 'GET /api/auth/me': () => ({ status: 200, body: student }) });
    await createApiClient({ baseUrl: '', getToken: () => null }).get('/api/auth/me', authResponse.shape.user);
    expect(calls[0]?.authorization).toBeNull();
  });

  it('tells a network failure, an HTTP error and a malformed answer apart', async () => {
    const api = createApiClient({ baseUrl: '', getToken: () => null });
    let reply: 'network' | 'http' | 'malformed' = 'network';
    mockServer({
      'POST /api/x': () =>
        reply === 'network'
          ? 'network-error'
          : reply === 'http'
            ? { status: 429, body: { error: 'Slow down.' } }
            : { status: 200, body: { nope: true } },
    });
    const attempt = async (): Promise<ApiError> => {
      try {
        await api.post('/api/x', {}, messageResponse);
      } catch (error) {
        if (error instanceof ApiError) return error;
      }
      throw new Error('expected an ApiError');
    };

    const network = await attempt();
    expect(network).toBeInstanceOf(ApiError);
    expect([network.kind, network.status]).toEqual(['network', 0]);
    reply = 'http';
    const http = await attempt();
    expect([http.kind, http.status, http.serverMessage]).toEqual(['http', 429, 'Slow down.']);
    reply = 'malformed';
    const malformed = await attempt();
    expect([malformed.kind, malformed.status]).toEqual(['invalid-response', 200]);

    expect(failureText(network, 'fallback', 'offline')).toBe('offline');
    expect(failureText(http, 'fallback', 'offline')).toBe('Slow down.');
    expect(failureText(malformed, 'fallback', 'offline')).toBe('fallback');
  });
});
