import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SaveFileRequest } from '@campus/protocol';
import { dialog, type BrowserWindow } from 'electron';

/**
 * The name comes from the renderer: it only suggests a file name inside the chosen folder, never a path.
 * Separators, control characters and characters Windows forbids are replaced, and dot-only names dropped.
 */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point here
  const cleaned = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').trim();
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'download' : cleaned.slice(0, 255);
}

/**
 * Asks the user where to save, through the OS dialog, and writes there. The renderer never names the
 * destination: only the user's choice in the dialog decides where bytes land.
 */
export async function saveFileWithDialog(
  window: BrowserWindow | null,
  request: SaveFileRequest,
  downloadsDir: string,
): Promise<boolean> {
  const options = { defaultPath: path.join(downloadsDir, safeFileName(request.name)) };
  const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (result.canceled || !result.filePath) return false;
  await writeFile(result.filePath, request.data);
  return true;
}
