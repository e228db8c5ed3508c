import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Dexie's liveQuery can hand over a superseded run's result after a newer one (a run that finished while
 * other Dexie work was in flight is delivered on a timer). This stand-in delivers results in whatever order
 * the test says, so the hook's guard is checked deterministically.
 */
type Next<T> = (value: T) => void;
const runs: { result: Promise<unknown>; deliver(): void }[] = [];
vi.mock('dexie', () => ({
  liveQuery<T>(querier: () => Promise<T>) {
    return {
      subscribe({ next }: { next: Next<T> }) {
        const start = () => {
          const result = querier();
          runs.push({ result, deliver: () => void result.then(next) });
        };
        start();
        (globalThis as { rerun?: () => void }).rerun = start;
        return { unsubscribe: () => undefined };
      },
    };
  },
}));

const { useLiveRows } = await import('../src/lib/useLiveRows');

let table: string[] = [];
function Rows({ chat }: { chat: string }) {
  const rows = useLiveRows(async () => [chat, ...table], [chat]);
  return <p data-testid="rows">{rows === undefined ? 'loading' : rows.join(',')}</p>;
}

afterEach(() => {
  cleanup();
  runs.length = 0;
  table = [];
});

describe('useLiveRows', () => {
  it('never lets a superseded read replace a newer one', async () => {
    render(<Rows chat="a" />);
    expect(screen.getByTestId('rows').textContent).toBe('loading');
    // A write lands: the query runs again. The newer run is delivered first, the older one after it.
    table = ['n-1'];
    act(() => (globalThis as { rerun?: () => void }).rerun?.());
    await act(async () => {
      runs[1]!.deliver();
      await runs[1]!.result;
    });
    expect(screen.getByTestId('rows').textContent).toBe('a,n-1');
    await act(async () => {
      runs[0]!.deliver();
      await runs[0]!.result;
    });
    expect(screen.getByTestId('rows').textContent).toBe('a,n-1');
  });

  it('shows nothing read for other deps (no previous chat for a frame)', async () => {
    const { rerender } = render(<Rows chat="a" />);
    await act(async () => {
      runs[0]!.deliver();
      await runs[0]!.result;
    });
    expect(screen.getByTestId('rows').textContent).toBe('a');
    rerender(<Rows chat="b" />);
    expect(screen.getByTestId('rows').textContent).toBe('loading');
  });
});
