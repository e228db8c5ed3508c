import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { UPLOAD_MSG, type OcrResult } from '@campus/protocol';
import { mockServer } from './helpers';
import { fileOf, installFakeXhr, newcomer, renderPage, stubObjectUrls } from './upload-kit';

const readable: OcrResult = {
  nama: 'NIA PUTRI',
  nim: '2021001234',
  kampus: 'Universitas Indonesia',
  jurusan: 'Ilmu Komputer',
};
const unreadable: OcrResult = { nama: 'BUDI SANTOSO', nim: '123', kampus: '', jurusan: 'Teknik' };
const signed = {
  url: '/files/put/documents/u-nia/a1?exp=1&sig=x',
  bucket: 'local',
  key: 'documents/u-nia/a1',
};
const SUBMITTED = { status: 200, body: { ok: true, documentStatus: 'pending_verification' } };

const location = () => screen.getByTestId('location').textContent;
const currentStep = () => screen.getByRole('listitem', { current: 'step' }).textContent;
const submitButton = () => screen.getByRole('button', { name: /^Submit/ });

/** A platform whose file picker hands over the given files, one per Browse. */
function picker(...files: File[]) {
  return { pickFiles: async () => [files.shift()!] };
}

async function browse() {
  fireEvent.click(screen.getByRole('button', { name: 'Browse files' }));
}

describe('upload page: choose, check, submit', () => {
  it('reads the card, uploads it with a real progress bar, submits, and goes to Talk 2 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubObjectUrls();
    const xhr = installFakeXhr();
    const { calls } = mockServer({
      'POST /api/ocr/upload': () => ({ status: 200, body: readable }),
      'POST /api/upload/document/sign': () => ({ status: 200, body: signed }),
      'POST /api/upload/document/submit': () => SUBMITTED,
    });
    const photo = fileOf('ktm.png', 'image/png', 60_000);
    renderPage('/upload-document', newcomer, picker(photo));
    expect(currentStep()).toContain('Choose');

    await browse();
    const fields = await screen.findByLabelText('Detected fields');
    expect(fields.textContent).toContain('NIA PUTRI');
    expect(fields.textContent).toContain('2021001234');
    expect(fields.textContent).toContain('Universitas Indonesia');
    expect(await screen.findByRole('img', { name: 'Your student ID' })).toBeTruthy();
    expect(currentStep()).toContain('Submit');
    const ocr = calls.find((call) => call.path === '/api/ocr/upload');
    expect(ocr?.authorization).toBe('Bearer token-u-nia');

    fireEvent.click(submitButton());
    await waitFor(() => expect(xhr.sent).toHaveLength(1));
    const put = xhr.sent[0]!;
    expect(calls.find((call) => call.path === '/api/upload/document/sign')?.body).toEqual({
      filename: 'ktm.png',
      contentType: 'image/png',
    });
    expect(put.method).toBe('PUT');
    expect(put.url).toBe(signed.url);
    // The signed URL is the permission: no bearer token goes with the file.
    expect(put.headers).toEqual({ 'Content-Type': 'image/png' });
    expect(put.body).toBe(photo);

    const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    act(() => put.progress(15_000, 60_000));
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    act(() => put.progress(45_000, 60_000));
    expect(bar.getAttribute('aria-valuenow')).toBe('75');
    expect(calls.some((call) => call.path === '/api/upload/document/submit')).toBe(false);

    act(() => put.respond(200));
    expect(await screen.findByText(UPLOAD_MSG.submitted)).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/upload/document/submit')?.body).toEqual({
      bucket: 'local',
      key: 'documents/u-nia/a1',
      manual: false,
      recognized: readable,
    });
    // The session (badges, access) knows at once; the page now says what happens next.
    expect(screen.getByTestId('session-status').textContent).toBe('pending_verification');
    expect(screen.getByRole('region', { name: 'Verification status' }).textContent).toContain(
      'Verification Pending',
    );

    await act(() => vi.advanceTimersByTimeAsync(1800));
    expect(location()).toBe('/upload-document');
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(location()).toBe('/talk');
  });

  it('shows each problem, refuses to submit, and turns to manual review after 3 failed validations', async () => {
    stubObjectUrls();
    const xhr = installFakeXhr();
    const { calls } = mockServer({
      'POST /api/ocr/upload': () => ({ status: 200, body: unreadable }),
      'POST /api/upload/document/sign': () => ({ status: 200, body: signed }),
      'POST /api/upload/document/submit': () => SUBMITTED,
    });
    const photos = [1, 2, 3].map((n) => fileOf(`ktm-${n}.jpg`, 'image/jpeg', 60_000));
    renderPage('/upload-document', newcomer, picker(...photos));

    for (const attempt of [1, 2, 3]) {
      await browse();
      const problems = await screen.findByRole('list', { name: 'Problems found' });
      expect(
        within(problems)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([UPLOAD_MSG.nameMismatch, UPLOAD_MSG.nimTooShort, UPLOAD_MSG.campusMissing]);
      expect(screen.getByLabelText('Detected fields').textContent).toContain('BUDI SANTOSO');
      if (attempt < 3) {
        expect(screen.queryByText(UPLOAD_MSG.manualMode)).toBeNull();
        expect(currentStep()).toContain('Check');
        fireEvent.click(submitButton());
        expect(screen.getByRole('alert').textContent).toBe(UPLOAD_MSG.fixErrors);
        fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
      }
    }
    expect(await screen.findByText(UPLOAD_MSG.manualMode)).toBeTruthy();
    expect(UPLOAD_MSG.manualMode).toContain('1 to 2 business days');
    expect(calls.filter((call) => call.path === '/api/upload/document/sign')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Submit for manual review' }));
    await waitFor(() => expect(xhr.sent).toHaveLength(1));
    act(() => xhr.sent[0]!.respond(200));
    await screen.findByText(UPLOAD_MSG.submitted);
    expect(calls.find((call) => call.path === '/api/upload/document/submit')?.body).toMatchObject({
      manual: true,
      recognized: unreadable,
    });
  });

  it('turns to manual review after 1 text-recognition failure, with the service error', async () => {
    stubObjectUrls();
    const xhr = installFakeXhr();
    const { calls } = mockServer({
      'POST /api/ocr/upload': () => ({ status: 502, body: { error: 'Text recognition is not available.' } }),
      'POST /api/upload/document/sign': () => ({ status: 200, body: signed }),
      'POST /api/upload/document/submit': () => SUBMITTED,
    });
    renderPage('/upload-document', newcomer, picker(fileOf('ktm.webp', 'image/webp', 60_000)));
    await browse();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`${UPLOAD_MSG.ocrFailedPrefix} Text recognition is not available.`);
    expect(screen.getByText(UPLOAD_MSG.manualMode)).toBeTruthy();
    expect(currentStep()).toContain('Submit');

    fireEvent.click(screen.getByRole('button', { name: 'Submit for manual review' }));
    await waitFor(() => expect(xhr.sent).toHaveLength(1));
    act(() => xhr.sent[0]!.respond(201));
    await screen.findByText(UPLOAD_MSG.submitted);
    expect(calls.find((call) => call.path === '/api/upload/document/submit')?.body).toMatchObject({
      manual: true,
      recognized: null,
    });
  });

  it('keeps the server text when it already starts with the OCR prefix', async () => {
    stubObjectUrls();
    const text = `${UPLOAD_MSG.ocrFailedPrefix} (timeout)`;
    mockServer({ 'POST /api/ocr/upload': () => ({ status: 500, body: { error: text } }) });
    renderPage('/upload-document', newcomer, picker(fileOf('ktm.png', 'image/png', 60_000)));
    await browse();
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it('sends a PDF straight to manual review, shown as a file card, without text recognition', async () => {
    const objectUrls = stubObjectUrls();
    installFakeXhr();
    const { calls } = mockServer({});
    renderPage('/upload-document', newcomer, picker(fileOf('student-id.pdf', 'application/pdf', 300_000)));
    await browse();
    expect(await screen.findByText(UPLOAD_MSG.manualMode)).toBeTruthy();
    expect(screen.getByText('PDF')).toBeTruthy();
    expect(screen.getAllByText(/student-id\.pdf/).length).toBeGreaterThan(0);
    expect(screen.queryByRole('img', { name: 'Your student ID' })).toBeNull();
    expect(objectUrls).not.toHaveBeenCalled();
    expect(calls.some((call) => call.path === '/api/ocr/upload')).toBe(false);
    expect(submitButton().textContent).toBe('Submit for manual review');
  });
});
