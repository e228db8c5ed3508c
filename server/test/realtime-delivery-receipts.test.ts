import { describe, expect, it, vi } from 'vitest';
import type { AppDeps } from '../src/lib/deps';
import { DeliveryReceipts } from '../src/modules/chat/delivery-receipts';

/** Only what DeliveryReceipts touches: commits are counted, never run. */
function fakeDeps() {
  const commit = vi.fn(async () => undefined);
  const deps = { transactor: { commit, read: vi.fn() }, log: { error: vi.fn() } } as unknown as AppDeps;
  return { deps, commit };
}

describe('DeliveryReceipts', () => {
  it('writes a batch after its short delay', async () => {
    vi.useFakeTimers();
    try {
      const { deps, commit } = fakeDeps();
      const receipts = new DeliveryReceipts(deps);
      receipts.add('bob', 'ann', 'm1');
      receipts.add('bob', 'ann', 'm2');
      await vi.advanceTimersByTimeAsync(50);
      expect(commit).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gathers nothing after close: a late add arms no timer and writes nothing', async () => {
    vi.useFakeTimers();
    try {
      const { deps, commit } = fakeDeps();
      const receipts = new DeliveryReceipts(deps);
      receipts.add('bob', 'ann', 'm1');
      receipts.close();
      receipts.add('bob', 'ann', 'm2');
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(50);
      expect(commit).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
