import { errorText, userSchema, type User } from '@campus/protocol';
import { ApiError } from '../../lib/api';

export interface PictureUpload {
  /** platform.serverUrl: '' for the page's own origin. */
  baseUrl: string;
  token: string;
  file: File;
  /** 0..1 as the bytes leave the browser. */
  onProgress(fraction: number): void;
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `PUT /api/users/profile/picture` with the file's bytes as the body. XMLHttpRequest, because fetch reports
 * no upload progress and the picture has a real progress bar. Fails with the same ApiError as lib/api.ts,
 * so the save shows the same texts whichever request failed.
 */
export function uploadPicture({ baseUrl, token, file, onProgress }: PictureUpload): Promise<User> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `${baseUrl}/api/users/profile/picture`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    // The server decides by the bytes; the declared type is only a courtesy.
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError('http', xhr.status, errorText(body), body));
        return;
      }
      const user = userSchema.safeParse(body);
      if (!user.success) {
        reject(new ApiError('invalid-response', xhr.status, undefined, body));
        return;
      }
      onProgress(1);
      resolve(user.data);
    };
    xhr.onerror = () => reject(new ApiError('network', 0, undefined, undefined));
    xhr.send(file);
  });
}
