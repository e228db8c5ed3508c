import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestMediaAccess } from '../src/main/media-access';
import { showNotification } from '../src/main/notifications';
import { safeFileName, saveFileWithDialog } from '../src/main/save-file';

const electron = vi.hoisted(() => {
  const shown: Array<{ options: { title: string; body: string }; emit(event: string): void }> = [];
  return {
    shown,
    supported: { value: true },
    askForMediaAccess: vi.fn(async (_kind: string) => false),
    showSaveDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePath: '' })),
  };
});

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class Notification extends Emitter {
    static isSupported = () => electron.supported.value;
    constructor(readonly options: { title: string; body: string }) {
      super();
    }
    show() {
      electron.shown.push(this);
    }
  }
  return {
    Notification,
    systemPreferences: { askForMediaAccess: electron.askForMediaAccess },
    dialog: { showSaveDialog: electron.showSaveDialog },
  };
});

describe('notifications', () => {
  beforeEach(() => {
    electron.shown.length = 0;
    electron.supported.value = true;
  });

  it('shows nothing while the window has focus: the UI shows the event itself', () => {
    const open = vi.fn();
    expect(showNotification({ isFocused: () => true, open }, { title: 'Hi', body: 'there' })).toBe(false);
    expect(electron.shown).toHaveLength(0);
  });

  it('shows one when unfocused; a click brings the app forward at the route', () => {
    const open = vi.fn();
    const notification = { title: 'New confession comment', body: 'Someone replied', route: '/confessions' };
    expect(showNotification({ isFocused: () => false, open }, notification)).toBe(true);
    expect(electron.shown.map((n) => n.options)).toEqual([
      { title: notification.title, body: notification.body },
    ]);
    electron.shown[0]?.emit('click');
    expect(open).toHaveBeenCalledWith('/confessions');
  });

  it('stays quiet where the OS has no notifications', () => {
    electron.supported.value = false;
    expect(showNotification({ isFocused: () => false, open: vi.fn() }, { title: 'Hi', body: '' })).toBe(
      false,
    );
  });
});

describe('media access', () => {
  it('asks macOS for the device', async () => {
    electron.askForMediaAccess.mockResolvedValueOnce(true);
    await expect(requestMediaAccess('camera', 'darwin')).resolves.toBe(true);
    expect(electron.askForMediaAccess).toHaveBeenCalledWith('camera');
    await expect(requestMediaAccess('microphone', 'darwin')).resolves.toBe(false);
  });

  it('needs no OS prompt on Windows and Linux', async () => {
    electron.askForMediaAccess.mockClear();
    await expect(requestMediaAccess('camera', 'win32')).resolves.toBe(true);
    await expect(requestMediaAccess('microphone', 'linux')).resolves.toBe(true);
    expect(electron.askForMediaAccess).not.toHaveBeenCalled();
  });
});

describe('save file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'campus-desktop-save-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('turns the suggested name into a bare file name', () => {
    expect(safeFileName('report.pdf')).toBe('report.pdf');
    expect(safeFileName('../../.ssh/authorized_keys')).toBe('authorized_keys');
    expect(safeFileName('C:\\Windows\\evil.bat')).toBe('evil.bat');
    expect(safeFileName('a<b>c:d|e?.txt')).toBe('a_b_c_d_e_.txt');
    expect(safeFileName('..')).toBe('download');
  });

  it('writes where the user chose, and suggests the Downloads folder', async () => {
    const target = path.join(dir, 'chosen.txt');
    electron.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const saved = await saveFileWithDialog(
      null,
      { name: '../notes.txt', data: new TextEncoder().encode('hello') },
      dir,
    );
    expect(saved).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('hello');
    expect(electron.showSaveDialog).toHaveBeenLastCalledWith({ defaultPath: path.join(dir, 'notes.txt') });
  });

  it('writes nothing when the dialog is cancelled', async () => {
    electron.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    await expect(saveFileWithDialog(null, { name: 'x.txt', data: new Uint8Array([1]) }, dir)).resolves.toBe(
      false,
    );
  });
});
