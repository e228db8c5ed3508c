import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { CHAT_MSG, STORAGE_KEYS } from '@campus/protocol';
import { FakeSyncClient, renderChat, SAM, seedPartner } from './chat-kit';
import { mockServer } from './helpers';

/** Stands in for the browser's XMLHttpRequest so the test can drive upload progress and the answer. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: {
    onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

async function startUpload() {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ token: 'tok-1', userId: 'u-alex' }));
  const client = new FakeSyncClient();
  await seedPartner(client);
  mockServer({});
  renderChat(client, `/chat/${SAM.id}`);
  await screen.findByRole('heading', { name: 'Sam Lee' });
  const file = new File(['hello'], 'notes.pdf', { type: 'application/pdf' });
  fireEvent.change(screen.getByLabelText('Attachment file'), { target: { files: [file] } });
  const xhr = FakeXhr.last as FakeXhr;
  expect(xhr.method).toBe('POST');
  expect(xhr.url).toBe(`/api/chat/${SAM.id}/attachments`);
  expect(xhr.headers.Authorization).toBe('Bearer tok-1');
  expect((xhr.body?.get('attachment') as File).name).toBe('notes.pdf');
  expect(xhr.body?.get('id')).toMatch(/^[0-9a-f-]{36}$/);
  return xhr;
}

describe('attachment uploads', () => {
  it('shows an uploading row with real progress, removed when the upload is done', async () => {
    const xhr = await startUpload();
    expect(await screen.findByText('Uploading notes.pdf...')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Uploading notes.pdf' }) as HTMLProgressElement;
    expect(bar.value).toBe(0);
    act(() => xhr.upload.onprogress?.({ lengthComputable: true, loaded: 3, total: 4 }));
    expect(bar.value).toBe(0.75);
    act(() => xhr.answer(201, { id: 'm1' }));
    await waitFor(() => expect(screen.queryByText('Uploading notes.pdf...')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('removes the row and shows the server’s reason, or the spec’s text, on failure', async () => {
    const xhr = await startUpload();
    await screen.findByText('Uploading notes.pdf...');
    act(() => xhr.answer(400, { error: 'This file type is not supported.' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This file type is not supported.');
    expect(screen.queryByText('Uploading notes.pdf...')).toBeNull();
  });

  it('uses the spec’s text when the server gives no reason', async () => {
    const xhr = await startUpload();
    await screen.findByText('Uploading notes.pdf...');
    act(() => xhr.answer(500, {}));
    expect((await screen.findByRole('alert')).textContent).toBe(CHAT_MSG.attachmentUploadFailed);
  });
});
