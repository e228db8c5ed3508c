import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { PROFILE, type User } from '@campus/protocol';
import { student, type RecordedCall } from './helpers';
import { SLOW, renderProfile, resetProfile } from './profile-kit';

afterEach(resetProfile);

const PUT = 'PUT /api/users/profile';
const puts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'PUT' && c.path === '/api/users/profile');
const skills = () => screen.getByRole('region', { name: 'Interests & Skills' });
const interest = (name: string) =>
  within(screen.getByRole('group', { name: 'Interests' })).getByRole('button', { name });

describe("the profile's focused-talk fields", () => {
  it('shows interests, skill level and branch in read mode', async () => {
    renderProfile({ ...student, interests: ['Coding', 'Music'], skillLevel: 'Advanced', branch: 'AI/ML' });
    await screen.findByRole('heading', { name: 'Alex Rivera' }, SLOW);
    const list = within(skills()).getByRole('list', { name: 'Interests' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Coding', 'Music']);
    const value = (label: string) =>
      within(skills()).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('Skill Level')).toBe('Advanced');
    expect(value('Branch/Major')).toBe('AI/ML');
  });

  it("reads 'N/A' and no interests when none are set", async () => {
    renderProfile();
    await screen.findByRole('heading', { name: 'Alex Rivera' }, SLOW);
    expect(within(skills()).getByText('No interests yet.')).toBeTruthy();
    expect(within(skills()).getAllByText('N/A')).toHaveLength(2);
  });

  it('edits them: interest chips (at most 10), skill level and branch selects, sent with PUT', async () => {
    const updated: User = { ...student, interests: ['Coding', 'Art'], skillLevel: 'Beginner', branch: 'CS' };
    const { calls } = renderProfile(
      { ...student, interests: ['Coding'], skillLevel: 'Advanced', branch: null },
      {
        [PUT]: () => ({ status: 200, body: updated }),
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }, SLOW));
    expect(interest('Coding').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(interest('Art'));
    expect(interest('Art').getAttribute('aria-pressed')).toBe('true');
    fireEvent.change(screen.getByLabelText('Skill Level'), { target: { value: 'Beginner' } });
    fireEvent.change(screen.getByLabelText('Branch/Major'), { target: { value: 'CS' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Profile updated!', {}, SLOW)).toBeTruthy();
    expect(puts(calls)[0]!.body).toMatchObject({
      interests: ['Coding', 'Art'],
      skillLevel: 'Beginner',
      branch: 'CS',
    });
    expect(within(within(skills()).getByRole('list', { name: 'Interests' })).getByText('Art')).toBeTruthy();
  });

  it('offers no eleventh interest, and clears a skill level with Not set', async () => {
    const ten = [
      'Coding',
      'Photography',
      'Music',
      'Sports',
      'Reading',
      'Gaming',
      'Art',
      'Cooking',
      'Travel',
      'Fitness',
    ] as const;
    expect(ten).toHaveLength(PROFILE.maxInterests);
    const { calls } = renderProfile(
      { ...student, interests: [...ten], skillLevel: 'Advanced' },
      {
        [PUT]: () => ({ status: 200, body: { ...student, interests: [...ten], skillLevel: null } }),
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }, SLOW));
    expect((interest('Movies') as HTMLButtonElement).disabled).toBe(true);
    expect((interest('Coding') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByText(`10/${PROFILE.maxInterests} chosen`)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Skill Level'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated!', {}, SLOW)).toBeTruthy();
    const body = puts(calls)[0]!.body as Record<string, unknown>;
    // Unchanged interests and branch are not sent; the cleared skill level is sent as ''.
    expect(body.skillLevel).toBe('');
    expect(body).not.toHaveProperty('interests');
    expect(body).not.toHaveProperty('branch');
  });
});
