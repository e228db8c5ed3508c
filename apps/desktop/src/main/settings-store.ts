import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serverUrlSchema } from '@campus/protocol';

export interface DesktopSettings {
  serverUrl: string;
}

export const DEFAULT_SETTINGS: Readonly<DesktopSettings> = Object.freeze({
  serverUrl: 'http://localhost:8787',
});

export const SETTINGS_FILE = 'settings.json';

/** A hand-edited or older file must never stop the app from starting: each field falls back on its own. */
function settingsFrom(raw: unknown): DesktopSettings {
  const fields = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const serverUrl = serverUrlSchema.safeParse(fields.serverUrl);
  return { serverUrl: serverUrl.success ? serverUrl.data : DEFAULT_SETTINGS.serverUrl };
}

function readSettingsFile(file: string): DesktopSettings {
  try {
    return settingsFrom(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export interface SettingsStore {
  get(): DesktopSettings;
  /** Validates with the protocol's schema (http/https only) and persists; throws on an invalid URL. */
  setServerUrl(url: unknown): Promise<DesktopSettings>;
}

/** Settings live as JSON in `directory` (the app's userData folder). */
export function createSettingsStore(directory: string): SettingsStore {
  const file = path.join(directory, SETTINGS_FILE);
  // Read synchronously once: the first window needs the server URL before it can be created.
  let current = readSettingsFile(file);
  let writing: Promise<void> = Promise.resolve();

  async function persist(settings: DesktopSettings): Promise<void> {
    await mkdir(directory, { recursive: true });
    // Write then rename, so a crash mid-write leaves the old file rather than half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
    await rename(temporary, file);
  }

  return {
    get: () => ({ ...current }),
    async setServerUrl(url: unknown) {
      const serverUrl = serverUrlSchema.parse(url);
      const next: DesktopSettings = { ...current, serverUrl };
      // Serialized: two quick saves must land in the order they were asked for.
      const write = writing.then(() => persist(next));
      writing = write.catch(() => undefined);
      await write;
      current = next;
      return { ...current };
    },
  };
}
