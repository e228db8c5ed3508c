import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import * as Y from 'yjs';
import { ACCESS_MSG, NOTES, NOTES_MSG, STORAGE_KEYS } from '@campus/protocol';
import { PlatformProvider } from '../src/platform/PlatformContext';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { GroupNotesPanel } from '../src/features/notes/GroupNotesPanel';
import { NotesConnectorContext } from '../src/features/notes/useGroupNotes';
import { createNotesStore, type NotesConnector, type NotesTarget } from '../src/features/notes/notes-session';
import { fakePlatform, student } from './helpers';

const session: SessionContextValue = {
  status: 'signed-in',
  user: student,
  endedBy: null,
  signIn: () => undefined,
  updateUser: () => undefined,
  logout: async () => undefined,
  expire: async () => undefined,
  retry: () => undefined,
};

/**
 * Two documents joined in memory, standing in for the server: whatever one applies, the other receives.
 * `remote` is another member's copy; the panel gets `local` through the connector.
 */
function memoryNotes() {
  const local = new Y.Doc();
  const remote = new Y.Doc();
  local.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== remote) Y.applyUpdate(remote, update, local);
  });
  remote.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== local) Y.applyUpdate(local, update, remote);
  });
  const store = createNotesStore({ doc: local, status: 'connecting' });
  const targets: NotesTarget[] = [];
  const connector: NotesConnector = (target) => {
    targets.push(target);
    return { subscribe: store.subscribe, getSnapshot: store.getSnapshot, destroy: () => undefined };
  };
  return { remoteText: remote.getText(NOTES.textName), store, connector, targets };
}

function renderPanel(connector: NotesConnector, onClose = vi.fn(), user = student) {
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ token: 'tok-alex', userId: student.id }));
  render(
    <PlatformProvider platform={fakePlatform()}>
      <SessionContext value={{ ...session, user }}>
        <NotesConnectorContext value={connector}>
          <GroupNotesPanel groupId="g-1" onClose={onClose} />
        </NotesConnectorContext>
      </SessionContext>
    </PlatformProvider>,
  );
  return { textarea: screen.getByRole('textbox', { name: NOTES_MSG.title }) as HTMLTextAreaElement, onClose };
}

/** Each change another member receives, as its inserted and deleted parts. */
function recordDeltas(text: Y.Text) {
  const seen: { inserted: string; deleted: number }[] = [];
  text.observe((event) => {
    let inserted = '';
    let deleted = 0;
    for (const op of event.delta) {
      if (typeof op.insert === 'string') inserted += op.insert;
      if (op.delete) deleted += op.delete;
    }
    seen.push({ inserted, deleted });
  });
  return seen;
}

const type = (textarea: HTMLTextAreaElement, value: string) =>
  fireEvent.change(textarea, { target: { value } });

describe('GroupNotesPanel', () => {
  it('shows a limited account the notes read-only, with why, and sends nothing it types', () => {
    const notes = memoryNotes();
    notes.remoteText.insert(0, 'agenda');
    const pending = { ...student, documentStatus: 'pending_verification' as const };
    const { textarea } = renderPanel(notes.connector, vi.fn(), pending);
    expect(textarea.readOnly).toBe(true);
    expect(textarea.value).toBe('agenda');
    expect(screen.getByRole('note').textContent).toBe(ACCESS_MSG.pendingVerification);
    type(textarea, 'agenda and mine');
    expect(notes.remoteText.toString()).toBe('agenda');
    expect(textarea.value).toBe('agenda');
  });

  it('sends local typing to the shared text as minimal changes', () => {
    const notes = memoryNotes();
    const { textarea } = renderPanel(notes.connector);
    const deltas = recordDeltas(notes.remoteText);

    type(textarea, 'Exam Friday');
    type(textarea, 'Exam on Friday');
    type(textarea, 'Exam on Monday');

    expect(notes.remoteText.toString()).toBe('Exam on Monday');
    expect(deltas).toEqual([
      { inserted: 'Exam Friday', deleted: 0 },
      { inserted: 'on ', deleted: 0 },
      { inserted: 'Mon', deleted: 3 },
    ]);
  });

  it('shows another member’s edits and keeps the caret on the same words', () => {
    const notes = memoryNotes();
    const { textarea } = renderPanel(notes.connector);
    type(textarea, 'Bring calculators');
    textarea.focus();
    textarea.setSelectionRange(6, 6); // just before "calculators"

    act(() => notes.remoteText.insert(0, 'Friday: '));

    expect(textarea.value).toBe('Friday: Bring calculators');
    expect(textarea.selectionStart).toBe(14);
    expect(textarea.value.slice(textarea.selectionStart)).toBe('calculators');

    act(() => notes.remoteText.insert(notes.remoteText.length, ' and pens'));
    expect(textarea.value).toBe('Friday: Bring calculators and pens');
    expect(textarea.selectionStart).toBe(14);
  });

  it('tells whether the notes are synced, connecting or kept offline', () => {
    const notes = memoryNotes();
    renderPanel(notes.connector);
    expect(screen.getByText(NOTES_MSG.membersOnly)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Connecting…');
    act(() => notes.store.set({ status: 'synced' }));
    expect(screen.getByRole('status').textContent).toBe('Synced');
    act(() => notes.store.set({ status: 'offline' }));
    expect(screen.getByRole('status').textContent).toBe('Offline — changes are saved on this device');
    act(() => notes.store.set({ status: 'too-large' }));
    expect(screen.getByRole('status').textContent).toBe(NOTES_MSG.tooLarge);
  });

  it('opens the notes of the signed-in user with their token, and closes on Escape', () => {
    const notes = memoryNotes();
    const { textarea, onClose } = renderPanel(notes.connector);
    expect(notes.targets[0]).toMatchObject({ userId: student.id, groupId: 'g-1', token: 'tok-alex' });
    fireEvent.keyDown(textarea, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('refuses one edit too large to send, and says so', () => {
    const notes = memoryNotes();
    const { textarea } = renderPanel(notes.connector);
    type(textarea, 'Notes');
    type(textarea, 'Notes' + 'x'.repeat(NOTES.maxEditChars + 1));
    expect(notes.remoteText.toString()).toBe('Notes');
    expect(textarea.value).toBe('Notes');
    expect(screen.getByRole('alert').textContent).toBe(NOTES_MSG.editTooLarge);
  });
});
