import { errorText } from '@campus/protocol';

export interface UploaderConfig {
  /** platform.serverUrl: '' for the page's own origin. */
  baseUrl: string;
  /** Read at every upload, like lib/api.ts, so a sign-in or logout takes effect at once. */
  getToken: () => string | null;
}

/** status 0: the server was never reached. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
  ) {
    super(serverMessage ?? (status === 0 ? 'Network error' : `Upload failed (${status})`));
    this.name = 'UploadError';
  }
}

export interface UploadRequest {
  path: string;
  file: File;
  /** Other multipart fields (the message id). */
  fields: Record<string, string>;
  /** 0..1 as the bytes leave the browser. */
  onProgress: (fraction: number) => void;
}

export type Uploader = (request: UploadRequest) => Promise<unknown>;

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Multipart upload through XMLHttpRequest, because fetch still reports no upload progress and the spec
 * wants a real progress bar. The file goes in the field `attachment`.
 */
export function createUploader({ baseUrl, getToken }: UploaderConfig): Uploader {
  return ({ path, file, fields, onProgress }) =>
    new Promise((resolve, reject) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('attachment', file, file.name);
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${baseUrl}${path}`);
      xhr.setRequestHeader('Accept', 'application/json');
      const token = getToken();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        const body = parseJson(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress(1);
          resolve(body);
        } else {
          reject(new UploadError(xhr.status, errorText(body)));
        }
      };
      xhr.onerror = () => reject(new UploadError(0, undefined));
      xhr.send(form);
    });
}
