export interface BackoffTiming {
  reconnectMinMs: number;
  reconnectMaxMs: number;
}

/**
 * Delay before reconnect attempt `attempt` (0 = first retry): doubling from the minimum, with ±50 %
 * jitter so a campus of clients dropped together does not return together, always within [min, max].
 */
export function reconnectDelay(attempt: number, timing: BackoffTiming, random: () => number): number {
  const base = Math.min(timing.reconnectMaxMs, timing.reconnectMinMs * 2 ** Math.max(0, attempt));
  const jittered = base * (0.5 + random());
  return Math.round(Math.min(timing.reconnectMaxMs, Math.max(timing.reconnectMinMs, jittered)));
}
