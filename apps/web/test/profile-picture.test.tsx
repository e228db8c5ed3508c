import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { PROFILE_MSG, type User } from '@campus/protocol';
import { student } from './helpers';
import { SLOW, fileOf, renderProfile, resetProfile, stubXhr } from './profile-kit';

afterEach(resetProfile);

const PICTURE_URL = '/files/avatars/u-alex?v=0123456789abcdef';
const withPicture: User = { ...student, profilePictureUrl: PICTURE_URL };

async function openEditor() {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }, SLOW));
}

const choose = (file: File) =>
  fireEvent.change(screen.getByLabelText('Profile picture file'), { target: { files: [file] } });
const editorAvatar = () => document.querySelector('.picture-field .avatar')!;
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

describe('the profile picture', () => {
  it("shows the hint 'max 2MB, JPG/PNG' and refuses a picture over 2 MB or a file that is not an image", async () => {
    const xhr = stubXhr();
    renderProfile();
    await openEditor();
    expect(screen.getByText('max 2MB, JPG/PNG')).toBeTruthy();

    choose(fileOf('huge.png', 'image/png', 2 * 1024 * 1024 + 1));
    expect((await screen.findByRole('alert')).textContent).toBe(PROFILE_MSG.pictureTooLarge);
    choose(fileOf('notes.pdf', 'application/pdf'));
    expect((await screen.findByRole('alert')).textContent).toBe(PROFILE_MSG.pictureType);
    expect(editorAvatar().querySelector('img')).toBeNull();

    // Exactly 2 MB is allowed: previewed, no message.
    choose(fileOf('max.png', 'image/png', 2 * 1024 * 1024));
    await waitFor(() =>
      expect(editorAvatar().querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,/),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(xhr.sent).toHaveLength(0);
  });

  it('uploads a new picture on Save with a progress bar, then saves the profile', async () => {
    const xhr = stubXhr();
    const { calls } = renderProfile(student, {
      'PUT /api/users/profile': () => ({ status: 200, body: withPicture }),
    });
    await openEditor();
    const file = fileOf('me.jpg', 'image/jpeg', 5000);
    choose(file);
    await waitFor(() => expect(editorAvatar().querySelector('img')).not.toBeNull());
    save();

    await waitFor(() => expect(xhr.sent).toHaveLength(1));
    const upload = xhr.sent[0]!;
    expect(upload.method).toBe('PUT');
    expect(upload.url).toBe('/api/users/profile/picture');
    expect(upload.headers.Authorization).toBe(`Bearer token-${student.id}`);
    expect(upload.body).toBe(file);
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeTruthy();

    act(() => upload.progress(2000, 5000));
    const bar = screen.getByRole('progressbar', { name: 'Uploading picture' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('Uploading picture… 40%')).toBeTruthy();
    // The profile is saved only once the picture is in.
    expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/users/profile')).toBe(false);

    act(() => upload.respond(200, withPicture));
    expect(await screen.findByText('Profile updated!', {}, SLOW)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT' && c.path === '/api/users/profile')).toHaveLength(1);
    // The new picture shows on the profile card and in the top bar.
    expect(document.querySelector('.profile-card .avatar img')?.getAttribute('src')).toBe(PICTURE_URL);
    expect(
      screen.getByRole('button', { name: 'Open profile' }).querySelector('img')?.getAttribute('src'),
    ).toBe(PICTURE_URL);
  });

  it("shows the server's refusal of a picture and sends no profile", async () => {
    const xhr = stubXhr();
    const { calls } = renderProfile();
    await openEditor();
    choose(fileOf('fake.png', 'image/png'));
    await waitFor(() => expect(editorAvatar().querySelector('img')).not.toBeNull());
    save();
    await waitFor(() => expect(xhr.sent).toHaveLength(1));
    act(() => xhr.sent[0]!.respond(415, { error: PROFILE_MSG.pictureType }));
    expect((await screen.findByRole('alert')).textContent).toBe(PROFILE_MSG.pictureType);
    expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/users/profile')).toBe(false);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('removes the picture on Save (back to initials), and Cancel keeps it', async () => {
    const { calls } = renderProfile(withPicture, {
      'DELETE /api/users/profile/picture': () => ({ status: 200, body: student }),
      'PUT /api/users/profile': () => ({ status: 200, body: student }),
    });
    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: 'Remove picture' }));
    expect(editorAvatar().textContent).toBe('AR');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.querySelector('.profile-card .avatar img')?.getAttribute('src')).toBe(PICTURE_URL);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: 'Remove picture' }));
    save();
    await screen.findByText('Profile updated!', {}, SLOW);
    const order = calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
    expect(order).toEqual(['DELETE /api/users/profile/picture', 'PUT /api/users/profile']);
    expect(document.querySelector('.profile-card .avatar')?.textContent).toBe('AR');
  });
});
