import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { COLLEGE_MSG, PROFILE_MSG, STORAGE_KEYS, type User } from '@campus/protocol';
import { student, type RecordedCall } from './helpers';
import { MH_COLLEGES, SLOW, holdRoute, listRoute, renderProfile, resetProfile } from './profile-kit';

afterEach(resetProfile);

const PUT = 'PUT /api/users/profile';
const saved = (user: User) => ({ [PUT]: () => ({ status: 200, body: user }) });
const puts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'PUT' && c.path === '/api/users/profile');

async function openEditor() {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }, SLOW));
  return screen.getByRole('form', { name: 'Edit Profile' });
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

describe('editing the profile', () => {
  it('sends the edited profile without the fields it never sends, with the picked college as an object', async () => {
    const updated: User = {
      ...student,
      course: 'Mechanical Engineering',
      year: 3,
      bio: 'Hello there',
      college: { ...MH_COLLEGES[1]! },
    };
    const { calls } = renderProfile(
      { ...student, lastActiveAt: '2025-02-01T00:00:00.000Z', access: 'full', rejectionReason: null },
      { ...saved(updated), ...listRoute('/colleges/IN-MH.json', MH_COLLEGES) },
    );
    await openEditor();
    type('Course / Major', '  Mechanical Engineering ');
    type('Year of Study', '3');
    type('Bio', 'Hello there');
    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'MH' } });
    const search = await screen.findByRole('combobox', { name: 'Search colleges' });
    await waitFor(() => expect((search as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(search, { target: { value: 'pune' } });
    fireEvent.click(await screen.findByRole('option', { name: /College of Engineering Pune/ }));
    save();

    expect(await screen.findByText('Profile updated!', {}, SLOW)).toBeTruthy();
    expect(puts(calls)).toHaveLength(1);
    expect(puts(calls)[0]!.body).toEqual({
      firstName: 'Alex',
      lastName: 'Rivera',
      role: 'user',
      course: 'Mechanical Engineering',
      year: 3,
      bio: 'Hello there',
      college: {
        id: 'in-coep',
        name: 'College of Engineering Pune',
        country: 'IN',
        city: 'Pune',
        stateName: 'Maharashtra',
      },
      createdAt: student.createdAt,
    });
    expect(puts(calls)[0]!.authorization).toBe(`Bearer token-${student.id}`);
    // Back in read mode with the server's answer; the session (and its stored copy) follow.
    expect(screen.queryByRole('form', { name: 'Edit Profile' })).toBeNull();
    const education = screen.getByRole('region', { name: 'Education' });
    expect(within(education).getByText('Mechanical Engineering')).toBeTruthy();
    expect(within(education).getByText('Year 3')).toBeTruthy();
    expect(screen.getByText('Hello there')).toBeTruthy();
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.session)!) as { user: User };
    expect(stored.user.course).toBe('Mechanical Engineering');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Profile' }));
  });

  it('clears an emptied year, course and bio, and leaves the college alone when it was not changed', async () => {
    const { calls } = renderProfile({ ...student, bio: 'Old bio' }, saved({ ...student, year: null }));
    await openEditor();
    type('Year of Study', '');
    type('Course / Major', '   ');
    type('Bio', '');
    save();
    await screen.findByText('Profile updated!', {}, SLOW);
    const body = puts(calls)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ year: '', course: '', bio: '' });
    expect(body).not.toHaveProperty('college');
  });

  it('sends a manually added college by its name, with country IN, and requires a name', async () => {
    const { calls } = renderProfile(student, {
      ...saved(student),
      ...listRoute('/colleges/IN-GA.json', []),
    });
    await openEditor();
    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'GA' } });
    const search = await screen.findByRole('combobox', { name: 'Search colleges' });
    fireEvent.change(search, { target: { value: 'Sunrise' } });
    expect(await screen.findByText(COLLEGE_MSG.noneFound, {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add manually' }));
    const manual = field('College name');
    expect(manual.value).toBe('Sunrise');
    expect(document.activeElement).toBe(manual);

    type('College name', '   ');
    save();
    expect(screen.getByText(COLLEGE_MSG.manualNameRequired)).toBeTruthy();
    expect(puts(calls)).toHaveLength(0);

    type('College name', '  Sunrise   Institute of Arts ');
    save();
    await screen.findByText('Profile updated!', {}, SLOW);
    expect((puts(calls)[0]!.body as { college: unknown }).college).toEqual({
      id: 'Sunrise Institute of Arts',
      name: 'Sunrise Institute of Arts',
      country: 'IN',
    });
  });

  it('offers the college of the academic e-mail address, and sends it as picked', async () => {
    const iitb = MH_COLLEGES[0]!;
    const { calls } = renderProfile(student, {
      ...saved(student),
      'GET /api/users/profile/college-suggestion': () => ({ status: 200, body: { college: iitb } }),
    });
    await openEditor();
    expect(await screen.findByText('Suggested from your e-mail', {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use this college' }));
    save();
    await screen.findByText('Profile updated!', {}, SLOW);
    expect((puts(calls)[0]!.body as { college: unknown }).college).toEqual(iitb);
  });

  it('checks the year (1 to 10) before sending', async () => {
    const { calls } = renderProfile(student, saved(student));
    await openEditor();
    for (const year of ['11', '0', '2.5']) {
      type('Year of Study', year);
      save();
      expect(screen.getByText(PROFILE_MSG.yearRange)).toBeTruthy();
      expect(document.activeElement).toBe(field('Year of Study'));
    }
    expect(puts(calls)).toHaveLength(0);
    type('Year of Study', '10');
    save();
    await screen.findByText('Profile updated!', {}, SLOW);
    expect((puts(calls)[0]!.body as { year: unknown }).year).toBe(10);
  });

  it("says 'Saving...' while the save is on its way, then 'Profile updated!' for 2.5 seconds", async () => {
    const { fetchMock } = renderProfile(student, saved({ ...student, course: 'Physics' }));
    await openEditor();
    const hold = holdRoute(fetchMock, PUT);
    type('Course / Major', 'Physics');
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    save();
    const busy = await screen.findByRole('button', { name: 'Saving...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    hold.release();
    expect(await screen.findByText('Profile updated!', {}, SLOW)).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.getByText('Profile updated!')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(screen.queryByText('Profile updated!')).toBeNull();
  });

  it('discards the changes on Cancel', async () => {
    const { calls } = renderProfile(student, saved(student));
    await openEditor();
    type('Course / Major', 'Art History');
    type('Bio', 'Changed my mind');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit Profile' })).toBeNull();
    expect(
      within(screen.getByRole('region', { name: 'Education' })).getByText('Computer Science'),
    ).toBeTruthy();
    await openEditor();
    expect(field('Course / Major').value).toBe('Computer Science');
    expect(field('Bio').value).toBe('');
    expect(puts(calls)).toHaveLength(0);
  });

  it.each([
    [
      'the server’s own error',
      { status: 400, body: { error: 'Course must be at most 100 characters.' } },
      'Course must be at most 100 characters.',
    ],
    ['Update failed without one', { status: 500 }, PROFILE_MSG.updateFailed],
    ['An unknown error occurred without a connection', 'network-error' as const, PROFILE_MSG.unknownError],
  ])('shows %s and stays in edit mode', async (_, reply, text) => {
    renderProfile(student, { [PUT]: () => reply });
    await openEditor();
    type('Course / Major', 'Physics');
    save();
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(screen.getByRole('form', { name: 'Edit Profile' })).toBeTruthy();
    expect(field('Course / Major').value).toBe('Physics');
  });

  it("says 'Token not found. Log in again.' when the stored login is gone, without sending", async () => {
    const { calls } = renderProfile(student, saved(student));
    await openEditor();
    localStorage.removeItem(STORAGE_KEYS.session);
    save();
    expect((await screen.findByRole('alert')).textContent).toBe(PROFILE_MSG.tokenMissing);
    expect(puts(calls)).toHaveLength(0);
  });
});
