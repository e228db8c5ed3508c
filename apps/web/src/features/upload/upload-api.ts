import {
  UPLOAD_MSG,
  documentSignResponseSchema,
  documentSubmitResponseSchema,
  errorText,
  ocrResultSchema,
  type DocumentSignResponse,
  type DocumentSubmitRequest,
  type DocumentSubmitResponse,
  type OcrResult,
} from '@campus/protocol';
import { isApiError, type ApiClient } from '../../lib/api';

/** A step of the upload failed; `message` is the text the page shows (the spec's, or the server's). */
export class UploadStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadStepError';
  }
}

/**
 * The server's own words when it explains a refusal (a 4xx: already verified, upload missing, expired…),
 * otherwise the spec's text: a 5xx or an unreachable server says nothing a student can act on.
 */
function stepError(error: unknown, fallback: string): UploadStepError {
  const explained = isApiError(error) && error.kind === 'http' && error.status < 500;
  return new UploadStepError((explained && error.serverMessage) || fallback);
}

/** The upload messages a student can act on; other refusals of the PUT read 'Cloud upload failed'. */
const UPLOAD_TEXTS: ReadonlySet<string> = new Set(Object.values(UPLOAD_MSG));

/**
 * The text-recognition call (`POST /api/ocr/upload`, multipart `file`). Any failure reads 'Failed to process
 * image with OCR service...', followed by the server's reason when it gave one.
 */
export async function recognizeDocument(api: ApiClient, file: File): Promise<OcrResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    return await api.postForm('/api/ocr/upload', form, ocrResultSchema);
  } catch (error) {
    const server = isApiError(error) ? error.serverMessage : undefined;
    if (server?.startsWith(UPLOAD_MSG.ocrFailedPrefix)) throw new UploadStepError(server);
    throw new UploadStepError(
      server ? `${UPLOAD_MSG.ocrFailedPrefix} ${server}` : UPLOAD_MSG.ocrFailedPrefix,
    );
  }
}

export async function signUpload(api: ApiClient, file: File): Promise<DocumentSignResponse> {
  try {
    return await api.post(
      '/api/upload/document/sign',
      { filename: file.name, contentType: file.type },
      documentSignResponseSchema,
    );
  } catch (error) {
    throw stepError(error, UPLOAD_MSG.signFailed);
  }
}

export async function submitDocument(
  api: ApiClient,
  body: DocumentSubmitRequest,
): Promise<DocumentSubmitResponse> {
  let response: DocumentSubmitResponse;
  try {
    response = await api.post('/api/upload/document/submit', body, documentSubmitResponseSchema);
  } catch (error) {
    throw stepError(error, UPLOAD_MSG.saveFailed);
  }
  if (!response.ok) throw new UploadStepError(response.error ?? UPLOAD_MSG.saveFailed);
  return response;
}

/** A signed URL of the local store is a path of the API server; an object store's is absolute. */
export function absoluteUploadUrl(url: string, serverUrl: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${serverUrl}${url}` : url;
}

/**
 * The direct PUT of the file to its signed URL, through XMLHttpRequest because fetch reports no upload
 * progress. No Authorization header: the signed URL is the permission (and an object store would refuse
 * a bearer token it does not know).
 */
export function putSignedFile(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: (fraction: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let body: unknown;
      try {
        body = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : undefined;
      } catch {
        body = undefined;
      }
      const text = errorText(body);
      reject(new UploadStepError(text && UPLOAD_TEXTS.has(text) ? text : UPLOAD_MSG.cloudFailed));
    };
    xhr.onerror = () => reject(new UploadStepError(UPLOAD_MSG.networkFailed));
    xhr.send(file);
  });
}
