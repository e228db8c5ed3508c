import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

describe('configuration', () => {
  it('raises the auth rate limits only for test runs, never in production', () => {
    expect(loadConfig({ NODE_ENV: 'test', AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(20);
    expect(loadConfig({ NODE_ENV: 'production', AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(1);
    expect(loadConfig({ AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(1);
    expect(loadConfig({ NODE_ENV: 'test', AUTH_RATE_MULTIPLIER: 'lots' }).authRateMultiplier).toBe(1);
  });
});
