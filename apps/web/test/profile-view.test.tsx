import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DOCUMENT_STATUSES, documentStatusBadge, type User } from '@campus/protocol';
import { DEFAULT_BIO } from '../src/features/profile/ProfileDetails';
import { student } from './helpers';
import { SLOW, renderProfile, resetProfile } from './profile-kit';

afterEach(resetProfile);

const location = () => screen.getByTestId('location').textContent;
const education = () => screen.getByRole('region', { name: 'Education' });
const educationValue = (label: string) =>
  within(education()).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('the profile in read mode', () => {
  it.each(DOCUMENT_STATUSES)('shows the badge of the %s status in its colour', async (status) => {
    renderProfile({ ...student, documentStatus: status });
    const badge = await screen.findByText(documentStatusBadge(status), {}, SLOW);
    expect(badge.closest('.status-badge')?.className).toContain(`status-badge--${status}`);
    // Re-upload Document appears for a rejected document only.
    expect(screen.queryByRole('link', { name: 'Re-upload Document' }) !== null).toBe(status === 'rejected');
  });

  it('shows the card: initials, full name, e-mail, course, college and year, and Edit Profile', async () => {
    renderProfile();
    expect(await screen.findByRole('heading', { name: 'Alex Rivera' }, SLOW)).toBeTruthy();
    const card = screen.getByRole('heading', { name: 'Alex Rivera' }).closest('.profile-card') as HTMLElement;
    expect(card.querySelector('.avatar')?.textContent).toBe('AR');
    expect(within(card).getByText('alex@campustalk.test')).toBeTruthy();
    const facts = within(within(card).getByRole('list', { name: 'Education' })).getAllByRole('listitem');
    expect(facts.map((f) => f.textContent)).toEqual(['Computer Science', 'IIT Bombay', 'Year 2']);
    expect(within(card).getByRole('button', { name: 'Edit Profile' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Logout' }).length).toBeGreaterThan(0);
  });

  it('shows the picture when there is one', async () => {
    renderProfile({ ...student, profilePictureUrl: '/files/avatars/u-alex?v=abc' });
    await screen.findByRole('heading', { name: 'Alex Rivera' }, SLOW);
    const card = document.querySelector('.profile-card')!;
    const image = card.querySelector('.avatar img')!;
    expect(image.getAttribute('src')).toBe('/files/avatars/u-alex?v=abc');
    // A picture that cannot be loaded (offline, removed meanwhile) falls back to the initials.
    fireEvent.error(image);
    expect(card.querySelector('.avatar img')).toBeNull();
    expect(card.querySelector('.avatar')?.textContent).toBe('AR');
  });

  it("says 'About Me' with a default text when the bio is empty, and 'N/A' for what is missing", async () => {
    renderProfile({ ...student, bio: null, course: null, college: null, year: null });
    const about = await screen.findByRole('region', { name: 'About Me' }, SLOW);
    expect(within(about).getByText(DEFAULT_BIO)).toBeTruthy();
    expect(educationValue('Course')).toBe('N/A');
    expect(educationValue('College')).toBe('N/A');
    expect(educationValue('Year')).toBe('N/A');
  });

  it('shows the bio and the education, with the college object and its place', async () => {
    const user: User = {
      ...student,
      bio: 'I like chess.\nAnd tea.',
      college: {
        id: 'in-coep',
        name: 'College of Engineering Pune',
        country: 'IN',
        city: 'Pune',
        stateName: 'Maharashtra',
      },
      year: 4,
    };
    renderProfile(user);
    const about = await screen.findByRole('region', { name: 'About Me' }, SLOW);
    expect(about.querySelector('p')?.textContent).toBe('I like chess.\nAnd tea.');
    expect(educationValue('Course')).toBe('Computer Science');
    expect(educationValue('College')).toBe('College of Engineering PunePune, Maharashtra');
    expect(educationValue('Year')).toBe('Year 4');
  });

  it('shows why a document was rejected and leads to the upload page', async () => {
    renderProfile({ ...student, documentStatus: 'rejected', rejectionReason: 'The photo is blurred.' });
    expect(await screen.findByText('The photo is blurred.', {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Re-upload Document' }));
    await waitFor(() => expect(location()).toBe('/upload-document'));
  });
});
