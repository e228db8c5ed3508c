import { describe, expect, it } from 'vitest';
import { PushQueue } from '../src/modules/notifications';

/** A delivery that stays in flight until released, counting how many are in flight at once. */
function gate() {
  let active = 0;
  let peak = 0;
  let done = 0;
  const releases: (() => void)[] = [];
  const deliver = () => {
    active++;
    peak = Math.max(peak, active);
    return new Promise<void>((resolve) =>
      releases.push(() => {
        active--;
        done++;
        resolve();
      }),
    );
  };
  return { deliver, releases, stats: () => ({ active, peak, done }) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('push queue', () => {
  it('keeps at most 16 deliveries in flight and runs the rest as those finish', async () => {
    const queue = new PushQueue(() => 0);
    const g = gate();
    for (let i = 0; i < 40; i++) expect(queue.offer(`user-${i}`, g.deliver)).toBe(true);
    expect(g.stats()).toMatchObject({ active: 16, peak: 16 });
    while (g.stats().done < 40) {
      g.releases.shift()?.();
      await tick();
    }
    expect(g.stats()).toEqual({ active: 0, peak: 16, done: 40 });
  });

  it('sends one user at most 10 pushes a minute, then again after the minute', async () => {
    let now = 0;
    const queue = new PushQueue(() => now);
    const g = gate();
    const accepted = Array.from({ length: 12 }, () => queue.offer('flooded', g.deliver));
    expect(accepted.filter(Boolean)).toHaveLength(10);
    expect(queue.offer('someone-else', g.deliver)).toBe(true);
    now += 60_001;
    expect(queue.offer('flooded', g.deliver)).toBe(true);
  });
});
