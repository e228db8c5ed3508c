import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EMPTY_FILTERS, RANDOM_MSG } from '@campus/protocol';
import { BO, ROOM, randomWorld, renderRandom, serverSends, settle } from './random-kit';

const dialog = () => screen.getByRole('dialog', { name: 'Focused Talk' });
const chip = (group: string, name: string) =>
  within(screen.getByTestId(`filter-group-${group}`)).getByRole('button', { name });
const start = () => within(dialog()).getByRole('button', { name: 'Start Focused Talk' }) as HTMLButtonElement;
const estimate = () => screen.getByTestId('filter-estimate').textContent;

describe('focused talk', () => {
  it('the landing page: hero, feature cards, the fixed figures and the three steps', () => {
    renderRandom(randomWorld(), ['/talk', '/focused-talk']);
    expect(screen.getByRole('heading', { name: 'Focused Talk', level: 1 })).toBeTruthy();
    for (const text of [
      'Smart Filtering',
      'Quality Matches',
      'Multiple Options',
      '94%',
      '2.3x',
      '78%',
      '15min',
    ]) {
      expect(screen.getByText(text)).toBeTruthy();
    }
    expect(screen.getByText('Avg. Call Duration')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'How Focused Talk Works' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Talk' }));
    expect(screen.getByTestId('location').textContent).toBe('/talk');
  });

  it('the dialog: chips toggle, Start needs a filter, the real count is asked 300 ms after the last change', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = randomWorld();
    // When each count was asked, on the fake clock: shouldAdvanceTime also moves it with real time, so on a
    // busy machine an exact "none at 299 ms" would race; the gap from the last change is what must hold.
    const askedAt: number[] = [];
    world.counts = (json) => {
      askedAt.push(Date.now());
      return { total: json.includes('Music') ? 4 : 9, waiting: { audio: 1, video: 0, chat: 2 } };
    };
    renderRandom(world, ['/focused-talk']);
    fireEvent.click(screen.getByTestId('focused-start'));
    expect(start().disabled).toBe(true);
    expect(estimate()).toContain('All students');
    for (const group of ['interests', 'college', 'skillLevel', 'country', 'branch']) {
      expect(screen.getByTestId(`filter-group-${group}`).querySelector('.filter-group__hint')).toBeTruthy();
    }
    // The college chips: the student's own college and 'Other'.
    expect(chip('college', 'IIT Bombay')).toBeTruthy();
    expect(chip('college', 'Other')).toBeTruthy();

    fireEvent.click(chip('interests', 'Coding'));
    expect(chip('interests', 'Coding').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('filter-group-interests').querySelector('.filter-group__hint')).toBeNull();
    expect(start().disabled).toBe(false);
    expect(estimate()).toContain('Counting');
    const firstChange = Date.now();
    await settle(200);
    fireEvent.click(chip('interests', 'Music'));
    const lastChange = Date.now();
    await settle(300);
    const filters = { ...EMPTY_FILTERS, interests: ['Coding', 'Music'] };
    // One count for the filters as they ended, asked 300 ms after the last change; the first change's count
    // is asked only if that change stood alone for 300 ms (a stalled machine), and never sooner.
    expect(world.countRequests.at(-1)).toBe(
      `/api/random/counts?filters=${encodeURIComponent(JSON.stringify(filters))}`,
    );
    expect(askedAt.at(-1)! - lastChange).toBeGreaterThanOrEqual(300);
    if (askedAt.length > 1) expect(askedAt[0]! - firstChange).toBeGreaterThanOrEqual(300);
    expect(askedAt.length).toBeLessThanOrEqual(2);
    await waitFor(() => expect(estimate()).toContain('4 online now'));

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reset all filters' }));
    expect(chip('interests', 'Coding').getAttribute('aria-pressed')).toBe('false');
    expect(start().disabled).toBe(true);
    expect(estimate()).toContain('All students');

    // A college typed in becomes a chip, chosen.
    fireEvent.change(screen.getByLabelText('Add a college by name'), { target: { value: ' MIT  Pune ' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add' }));
    expect(chip('college', 'MIT Pune').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Start goes to the options: summary, active filters, real counts per kind; a card starts that search', async () => {
    const world = randomWorld();
    world.counts = (json) =>
      json
        ? { total: 12, waiting: { audio: 3, video: 1, chat: 6 } }
        : { total: 99, waiting: { audio: 0, video: 0, chat: 0 } };
    renderRandom(world, ['/focused-talk']);
    fireEvent.click(screen.getByTestId('focused-start'));
    fireEvent.click(chip('interests', 'Coding'));
    fireEvent.click(chip('interests', 'Gaming'));
    fireEvent.click(chip('skillLevel', 'Beginner'));
    fireEvent.click(start());

    expect(screen.getByTestId('location').textContent).toBe('/focused-talk-options');
    expect(screen.getByTestId('focused-summary').textContent).toBe('2 interests, 1 skill level');
    const active = screen.getByRole('list', { name: 'Active filters' });
    expect(
      within(active)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Coding', 'Gaming', 'Beginner']);
    await waitFor(() =>
      expect(screen.getByTestId('focused-count-audio').textContent).toMatch(/^3 match your filters/),
    );
    expect(screen.getByTestId('focused-count-video').textContent).toMatch(/^1 match your filters/);
    expect(screen.getByTestId('focused-count-chat').textContent).toMatch(/^6 match your filters/);
    expect(screen.getByTestId('focused-online').textContent).toContain(
      '12 students online match your filters',
    );
    expect(screen.getByText('Popular')).toBeTruthy();
    expect(screen.getByText('Safety First')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Focused Chat/ }));
    expect(screen.getByTestId('location').textContent).toBe('/random-chat');
    await waitFor(() => expect(world.client.randomSent('join-random')).toHaveLength(1));
    expect(world.client.randomSent('join-random')[0]).toEqual({
      type: 'join-random',
      filters: { ...EMPTY_FILTERS, interests: ['Coding', 'Gaming'], skillLevel: ['Beginner'] },
    });
    expect(screen.getByTestId('random-focused').textContent).toContain('2 interests, 1 skill level');
    serverSends(world, {
      type: 'random-matched',
      roomId: ROOM,
      partner: BO,
      matched: { satisfied: 1, chosen: 2 },
    });
    expect(screen.getByTestId('random-matched').textContent).toBe('Matches 1 of your 2 filters');
  });

  it('Back to Filters brings the chosen filters back into the dialog', () => {
    const filters = { ...EMPTY_FILTERS, branch: ['CS' as const] };
    renderRandom(randomWorld(), [{ pathname: '/focused-talk-options', state: { filters } }]);
    expect(screen.getByTestId('focused-summary').textContent).toBe('1 branch');
    fireEvent.click(screen.getByRole('button', { name: 'Back to Filters' }));
    expect(screen.getByTestId('location').textContent).toBe('/focused-talk');
    expect(chip('branch', 'CS').getAttribute('aria-pressed')).toBe('true');
  });

  it("without filters the options say 'All students' and the screens search without filters", async () => {
    const world = randomWorld();
    renderRandom(world, ['/focused-talk-options']);
    expect(screen.getByTestId('focused-summary').textContent).toBe('All students');
    expect(screen.getByText('All students (no filters applied)')).toBeTruthy();
    await waitFor(() => expect(world.countRequests).toEqual(['/api/random/counts']));
    fireEvent.click(screen.getByRole('button', { name: /Focused Audio Call/ }));
    expect(screen.getByText(RANDOM_MSG.findingSomeone)).toBeTruthy();
    await waitFor(() =>
      expect(world.client.randomSent('find-partner')).toEqual([{ type: 'find-partner', kind: 'audio' }]),
    );
  });
});
