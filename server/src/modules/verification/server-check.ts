import { documentProblems, type ServerCheck } from '@campus/protocol';
import type { AppDeps } from '../../deps';

/** A recognition that takes longer than this is given up (the submission still goes to the admin). */
export const RECOGNITION_TIMEOUT_MS = 60_000;

export interface CheckInput {
  bytes: Uint8Array;
  contentType: string;
  manual: boolean;
  firstName: string;
}

/**
 * The server's own reading of a submitted document, shown to the admin beside the client's: the client's
 * verdict is never trusted. Images are read again with the server's recognizer and judged by section 5's
 * rules (`documentProblems`, the very checks the upload page ran); a PDF or a manual request is skipped;
 * a recognizer that fails or hangs gives 'error'. Runs outside any transaction: it takes seconds.
 */
export async function serverCheck(deps: AppDeps, input: CheckInput): Promise<ServerCheck> {
  if (input.manual || !input.contentType.startsWith('image/'))
    return { verdict: 'skipped', problems: [], recognized: null };
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('text recognition timed out')), RECOGNITION_TIMEOUT_MS);
    });
    const recognized = await Promise.race([deps.ocr.recognize(input.bytes), timeout]);
    const problems = documentProblems(recognized, input.firstName, input.bytes.length);
    return { verdict: problems.length ? 'failed' : 'ok', problems, recognized };
  } catch (error) {
    deps.log.warn({ err: error }, 'server-side recognition of a document failed');
    return { verdict: 'error', problems: [], recognized: null };
  } finally {
    clearTimeout(timer);
  }
}
