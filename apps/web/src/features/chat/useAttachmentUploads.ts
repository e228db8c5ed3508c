import { useCallback, useMemo, useState } from 'react';
import { CHAT, CHAT_MSG, CHAT_SERVER_MSG, fileNameError } from '@campus/protocol';
import { readSession } from '../../lib/session-storage';
import { usePlatform } from '../../platform';
import { createUploader, UploadError } from './uploader';

/** A temporary 'Uploading <file name>...' row with its progress. */
export interface PendingUpload {
  id: string;
  name: string;
  progress: number;
}

function failureText(error: unknown): string {
  if (error instanceof UploadError) {
    if (error.status === 0) return CHAT_MSG.attachmentUploadError;
    if (error.status === 401) return CHAT_MSG.authRequiredAttachment;
    return error.serverMessage ?? CHAT_MSG.attachmentUploadFailed;
  }
  return CHAT_MSG.attachmentUploadFailed;
}

/**
 * Attachment uploads of one chat. Each upload carries a client-made message id so that a repeated request
 * never makes two messages; the stored message then reaches this view through sync like any other.
 */
export function useAttachmentUploads(path: string) {
  const platform = usePlatform();
  const upload = useMemo(
    () => createUploader({ baseUrl: platform.serverUrl, getToken: () => readSession()?.token ?? null }),
    [platform],
  );
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const [error, setError] = useState<string | null>(null);

  const start = useCallback(
    async (file: File) => {
      setError(null);
      if (file.size > CHAT.maxAttachmentBytes) {
        setError(CHAT_SERVER_MSG.attachmentTooLarge);
        return;
      }
      // The server refuses these names whatever the bytes are; say so before sending 10 MB for nothing.
      const nameError = fileNameError(file.name);
      if (nameError) {
        setError(nameError);
        return;
      }
      if (!readSession()?.token) {
        setError(CHAT_MSG.authRequiredAttachment);
        return;
      }
      const id = crypto.randomUUID();
      setUploads((rows) => [...rows, { id, name: file.name, progress: 0 }]);
      const setProgress = (progress: number) =>
        setUploads((rows) => rows.map((row) => (row.id === id ? { ...row, progress } : row)));
      try {
        await upload({ path, file, fields: { id }, onProgress: setProgress });
      } catch (failure) {
        setError(failureText(failure));
      } finally {
        setUploads((rows) => rows.filter((row) => row.id !== id));
      }
    },
    [path, upload],
  );

  return { uploads, error, clearError: () => setError(null), start };
}
