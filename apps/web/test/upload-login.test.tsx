import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ACCESS_MSG } from '@campus/protocol';
import { mockServer } from './helpers';
import { fakeSyncFactory, renderWithSync, resetDatabase } from './sync-provider-fake';
import { newcomer } from './upload-kit';

const rejected = {
  ...newcomer,
  documentStatus: 'rejected' as const,
  rejectionReason: 'The card is not a student ID.',
};

afterEach(() => resetDatabase(rejected.id));

describe('login after a rejection', () => {
  it("the 403's 'Upload again' reaches the upload page signed in, with the reason", async () => {
    mockServer({
      'POST /api/auth/login': () => ({
        status: 403,
        body: { error: ACCESS_MSG.rejected, token: 'tok-r', user: rejected },
      }),
    });
    renderWithSync('/login', fakeSyncFactory().factory);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: rejected.email } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'student-demo-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect((await screen.findByRole('alert')).textContent).toContain(ACCESS_MSG.rejected);
    fireEvent.click(screen.getByRole('button', { name: 'Upload again' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/upload-document'));
    const status = await screen.findByRole('region', { name: 'Verification status' }, { timeout: 5000 });
    expect(status.textContent).toContain('The card is not a student ID.');
    expect(screen.getByRole('button', { name: 'Browse files' })).toBeTruthy();
  });
});
