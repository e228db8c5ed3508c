import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { ACCESS_MSG, STORAGE_KEYS, UPLOAD_MSG } from '@campus/protocol';
import { mockServer } from './helpers';
import { fileOf, installFakeXhr, newcomer, renderPage, stubObjectUrls, type FakeXhr } from './upload-kit';

const signed = { url: '/files/put/documents/u-nia/a1?sig=x', bucket: 'local', key: 'documents/u-nia/a1' };
const pdf = () => fileOf('id.pdf', 'application/pdf', 200_000);
const location = () => screen.getByTestId('location').textContent;

type Reply = { status: number; body?: unknown } | 'network-error';

/** A PDF (manual review, no text recognition) chosen and submitted against the given answers. */
async function submitPdf(sign: Reply, submit: Reply = { status: 200, body: { ok: true } }) {
  stubObjectUrls();
  const xhr = installFakeXhr();
  const server = mockServer({
    'POST /api/upload/document/sign': () => sign,
    'POST /api/upload/document/submit': () => submit,
  });
  renderPage('/upload-document', newcomer, { pickFiles: async () => [pdf()] });
  fireEvent.click(screen.getByRole('button', { name: 'Browse files' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Submit for manual review' }));
  return { xhr, ...server };
}

async function putAnswered(xhr: typeof FakeXhr, answer: (put: FakeXhr) => void) {
  await waitFor(() => expect(xhr.sent).toHaveLength(1));
  act(() => answer(xhr.sent[0]!));
}

describe('upload errors (section 8)', () => {
  it.each([
    ['a refused sign', { status: 500, body: { error: 'Internal error' } }, UPLOAD_MSG.signFailed],
    ['an unreachable server', 'network-error' as const, UPLOAD_MSG.signFailed],
    [
      'a sign the server explains',
      { status: 409, body: { error: UPLOAD_MSG.alreadyVerified } },
      UPLOAD_MSG.alreadyVerified,
    ],
  ])('says so for %s', async (_, reply, text) => {
    const { xhr } = await submitPdf(reply);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(xhr.sent).toHaveLength(0);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it("says 'Cloud upload failed' when the PUT is refused and 'Network error during upload' when it fails", async () => {
    const { xhr, calls } = await submitPdf({ status: 200, body: signed });
    await putAnswered(xhr, (put) => put.respond(500, '<Error>S3</Error>'));
    expect((await screen.findByRole('alert')).textContent).toBe(UPLOAD_MSG.cloudFailed);

    // An expired link says so; a bare refusal is still the spec's text.
    fireEvent.click(screen.getByRole('button', { name: 'Submit for manual review' }));
    await waitFor(() => expect(xhr.sent).toHaveLength(2));
    act(() => xhr.sent[1]!.respond(410, JSON.stringify({ error: UPLOAD_MSG.uploadExpired })));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(UPLOAD_MSG.uploadExpired));
    fireEvent.click(screen.getByRole('button', { name: 'Submit for manual review' }));
    await waitFor(() => expect(xhr.sent).toHaveLength(3));
    act(() => xhr.sent[2]!.respond(403, JSON.stringify({ error: 'Forbidden' })));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(UPLOAD_MSG.cloudFailed));

    fireEvent.click(screen.getByRole('button', { name: 'Submit for manual review' }));
    await waitFor(() => expect(xhr.sent).toHaveLength(4));
    act(() => xhr.sent[3]!.fail());
    expect((await screen.findByRole('alert')).textContent).toBe(UPLOAD_MSG.networkFailed);
    expect(calls.some((call) => call.path === '/api/upload/document/submit')).toBe(false);
  });

  it.each([
    ['refused', { status: 500 }, UPLOAD_MSG.saveFailed],
    ['explained', { status: 400, body: { error: UPLOAD_MSG.uploadMissing } }, UPLOAD_MSG.uploadMissing],
    [
      'not ok',
      { status: 200, body: { ok: false, error: UPLOAD_MSG.uploadExpired } },
      UPLOAD_MSG.uploadExpired,
    ],
    ['not ok, silently', { status: 200, body: { ok: false } }, UPLOAD_MSG.saveFailed],
  ])('shows the failed save when the submit is %s', async (_, reply, text) => {
    const { xhr } = await submitPdf({ status: 200, body: signed }, reply);
    await putAnswered(xhr, (put) => put.respond(200));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(screen.queryByText(UPLOAD_MSG.submitted)).toBeNull();
  });

  it('asks to log in again when the token is gone, and for a file when none is chosen', async () => {
    stubObjectUrls();
    const { calls } = mockServer({});
    renderPage('/upload-document', newcomer, { pickFiles: async () => [pdf()] });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert').textContent).toBe(UPLOAD_MSG.noFile);

    fireEvent.click(screen.getByRole('button', { name: 'Browse files' }));
    const submit = await screen.findByRole('button', { name: 'Submit for manual review' });
    localStorage.removeItem(STORAGE_KEYS.session);
    fireEvent.click(submit);
    expect(screen.getByRole('alert').textContent).toBe(UPLOAD_MSG.tokenMissing);
    expect(calls).toHaveLength(0);
  });

  it('checks the type and the 2 MB limit of a dropped file before anything is sent', async () => {
    const { calls } = mockServer({});
    renderPage('/upload-document', newcomer);
    const drop = (file: File) =>
      fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [file], types: ['Files'] } });
    drop(fileOf('id.gif', 'image/gif', 1000));
    expect((await screen.findByRole('alert')).textContent).toBe(UPLOAD_MSG.fileType);
    drop(fileOf('id.pdf', 'application/pdf', 2 * 1024 * 1024 + 1));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(UPLOAD_MSG.fileTooLarge));
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Browse files' })).toBeTruthy();
  });
});

describe('camera', () => {
  it('says when the camera cannot be used, after asking the platform for it', async () => {
    const getUserMedia = vi.fn(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    const requestMediaPermission = vi.fn(async () => false);
    mockServer({});
    renderPage('/upload-document', newcomer, { requestMediaPermission });
    fireEvent.click(screen.getByRole('button', { name: 'Take Photo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Photo' });
    expect((await screen.findByRole('alert')).textContent).toBe(UPLOAD_MSG.camera);
    expect(requestMediaPermission).toHaveBeenCalledWith('camera');
    expect(dialog.querySelector('video')).toBeNull();
  });

  it('shows the live preview and turns the camera off when the dialog closes', async () => {
    const stop = vi.fn();
    const stream = { getTracks: () => [{ stop }] };
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: vi.fn(async () => stream) } });
    mockServer({});
    renderPage('/upload-document', newcomer);
    fireEvent.click(screen.getByRole('button', { name: 'Take Photo' }));
    const video = await screen.findByLabelText<HTMLVideoElement>('Camera preview');
    await waitFor(() => expect(video.srcObject).toBe(stream));
    // Capture waits for the frame's size: until the metadata loaded, the camera is still starting.
    expect(screen.getByRole('button', { name: 'Capture' })).toHaveProperty('disabled', true);
    fireEvent(video, new Event('loadedmetadata'));
    await screen.findByText('Fit the whole card in the frame, in good light.');
    expect(screen.getByRole('button', { name: 'Capture' })).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stop).toHaveBeenCalled();
  });
});

describe('status on the page', () => {
  it("'I'll do this later' returns to Talk", () => {
    mockServer({});
    renderPage('/upload-document', newcomer);
    fireEvent.click(screen.getByRole('button', { name: "I'll do this later" }));
    expect(location()).toBe('/talk');
  });

  it('waiting for review: says what happens next, and offers to replace the document', () => {
    mockServer({});
    renderPage('/upload-document', { ...newcomer, documentStatus: 'pending_verification' });
    const status = screen.getByRole('region', { name: 'Verification status' });
    expect(status.textContent).toContain('Verification Pending');
    expect(status.textContent).toContain('1 to 2 business days');
    expect(screen.queryByTestId('dropzone')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Upload a different document' }));
    expect(screen.getByTestId('dropzone')).toBeTruthy();
  });

  it('rejected: shows the reason and the upload again', () => {
    mockServer({});
    renderPage('/upload-document', {
      ...newcomer,
      documentStatus: 'rejected',
      rejectionReason: 'The photo is blurred.',
    });
    const status = screen.getByRole('region', { name: 'Verification status' });
    expect(status.textContent).toContain('Document Rejected');
    expect(status.textContent).toContain(ACCESS_MSG.rejected);
    expect(status.textContent).toContain('The photo is blurred.');
    expect(screen.getByTestId('dropzone')).toBeTruthy();
  });

  it('verified: done, nothing to upload', () => {
    mockServer({});
    renderPage('/upload-document', { ...newcomer, documentStatus: 'verified', access: 'full' });
    expect(screen.getByRole('region', { name: 'Verification status' }).textContent).toContain(
      'Student ID Verified',
    );
    expect(screen.queryByTestId('dropzone')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Go to Talk' }));
    expect(location()).toBe('/talk');
  });
});
