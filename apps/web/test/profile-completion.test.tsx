import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { profileCompletion } from '../src/features/profile/completion';
import { PROFILE_BENEFITS } from '../src/features/profile/ProfileCompletionModal';
import { student } from './helpers';
import { SLOW, renderProfile, resetProfile } from './profile-kit';

afterEach(resetProfile);

const location = () => screen.getByTestId('location').textContent;

describe('profile completion', () => {
  it('counts college, course and year, rounded to a whole percentage of 3', () => {
    const none = { college: null, course: null, year: null };
    expect(profileCompletion(none)).toEqual({
      completed: [],
      missing: ['College', 'Branch / Course', 'Year of Study'],
      percent: 0,
    });
    expect(profileCompletion({ ...none, course: 'Law' }).percent).toBe(33);
    expect(profileCompletion({ ...none, course: 'Law', year: 1 }).percent).toBe(67);
    expect(
      profileCompletion({ college: { id: 'x', name: 'X', country: 'IN' }, course: 'Law', year: 1 }),
    ).toEqual({
      completed: ['College', 'Branch / Course', 'Year of Study'],
      missing: [],
      percent: 100,
    });
    // Blank text is missing.
    expect(profileCompletion({ college: '  ', course: ' ', year: 3 }).missing).toEqual([
      'College',
      'Branch / Course',
    ]);
  });

  it('opens before Random Talk with the items, the percentage and the benefits; Cancel closes it', async () => {
    renderProfile({ ...student, college: null, year: null }, {}, '/talk');
    fireEvent.click(await screen.findByRole('button', { name: /Random Talk/ }, SLOW));
    const dialog = screen.getByRole('dialog', { name: 'Complete Your Profile' });
    expect(within(dialog).getByText('33%')).toBeTruthy();
    expect(
      within(dialog).getByRole('progressbar', { name: 'Profile completion' }).getAttribute('aria-valuenow'),
    ).toBe('33');
    const items = within(within(dialog).getByRole('list', { name: 'Profile items' })).getAllByRole(
      'listitem',
    );
    expect(items.map((i) => i.textContent)).toEqual([
      '✓Branch / Course: completed',
      '!College: missing',
      '!Year of Study: missing',
    ]);
    const benefits = within(dialog).getByRole('heading', {
      name: 'Why complete your profile?',
    }).nextElementSibling!;
    expect(
      within(benefits as HTMLElement)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual([...PROFILE_BENEFITS]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(location()).toBe('/talk');
  });

  it('goes to the profile in edit mode with Complete Profile', async () => {
    renderProfile({ ...student, college: null, course: null, year: null }, {}, '/talk');
    fireEvent.click(await screen.findByRole('button', { name: /Random Talk/ }, SLOW));
    expect(within(screen.getByRole('dialog')).getByText('0%')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Complete Profile' }));
    await waitFor(() => expect(location()).toBe('/profile'));
    expect(await screen.findByRole('form', { name: 'Edit Profile' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Edit Profile' }));
  });
});
