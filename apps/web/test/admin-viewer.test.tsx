import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { ADMIN_MSG } from '@campus/protocol';
import { admin, mockServer } from './helpers';
import { documentUrl, item, list, page } from './admin-kit';
import { renderPage } from './upload-kit';

const nia = item('u-nia', 'Nia');
const signed = '/files/documents/u-nia/a1?exp=9&sig=abc';

async function openDocument(reply: { status: number; body?: unknown }, platform = {}) {
  const { calls } = mockServer({
    [list('pending_verification')]: () => page([nia]),
    [documentUrl('u-nia')]: () => reply,
  });
  renderPage('/admin/documents', admin, platform);
  const row = await screen.findByRole('article', { name: 'Nia Putri' });
  // Signed URLs are short-lived: fetched only when the reviewer opens the document.
  expect(calls.some((call) => call.path.includes('document-url'))).toBe(false);
  fireEvent.click(within(row).getByRole('button', { name: 'View document' }));
  return row;
}

const pressed = () =>
  within(screen.getByRole('group', { name: 'Zoom' }))
    .getAllByRole('button')
    .filter((b) => b.getAttribute('aria-pressed') === 'true')
    .map((b) => b.textContent);

describe('admin documents: the viewer', () => {
  it('shows a picture with zoom: fit, 100% and 200%, by button or by clicking the picture', async () => {
    const row = await openDocument({ status: 200, body: { url: signed, contentType: 'image/jpeg' } });
    const image = await within(row).findByRole('img', { name: 'Student ID of Nia Putri' });
    expect(image.getAttribute('src')).toBe(signed);
    expect(pressed()).toEqual(['Fit']);
    Object.defineProperty(image, 'naturalWidth', { value: 1200 });
    fireEvent.load(image);

    fireEvent.click(image);
    expect(pressed()).toEqual(['100%']);
    expect(image.style.width).toBe('1200px');
    fireEvent.click(screen.getByRole('button', { name: '200%' }));
    expect(pressed()).toEqual(['200%']);
    expect(image.style.width).toBe('2400px');
    fireEvent.click(image);
    expect(pressed()).toEqual(['Fit']);
    expect(image.style.width).toBe('');
    // The frame scrolls a zoomed picture from the keyboard.
    expect(within(row).getByRole('region', { name: 'Document' }).tabIndex).toBe(0);
  });

  it("shows a PDF in the browser's viewer and opens it in a window of its own", async () => {
    const openExternal = vi.fn(async () => undefined);
    const row = await openDocument(
      { status: 200, body: { url: signed, contentType: 'application/pdf' } },
      { openExternal },
    );
    const frame = await within(row).findByTitle('Student ID of Nia Putri (PDF)');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(signed);
    fireEvent.click(within(row).getByRole('button', { name: 'Open the PDF in a new window' }));
    expect(openExternal).toHaveBeenCalledWith(new URL(signed, window.location.href).toString());
  });

  it("says 'No document' when there is none", async () => {
    const row = await openDocument({ status: 404, body: { error: 'Not found' } });
    expect((await within(row).findByRole('alert')).textContent).toBe(ADMIN_MSG.noDocument);
  });
});
