import type { Worker as Thread } from 'node:worker_threads';
import type { OcrEngine } from './pool';
import { OCR_LANGS } from './lang-data';

/** Loading both models takes ~0.6 s; a start that hangs (tesseract.js never settles some failures) ends here. */
const START_TIMEOUT_MS = 30_000;

/**
 * A tesseract.js worker thread reading English and Indonesian, fully offline: the models come from
 * `langPath` (see lang-data.ts), nothing is cached or fetched (`cacheMethod: 'none'`).
 *
 * Page segmentation 4 (one column of lines of varying sizes): a card's "Label : value" rows stay whole
 * lines, where the default (automatic) mode often reads the labels and the values as two columns, and the
 * photo's texture is kept out of the lines more often than with mode 6 (measured on the generated cards:
 * 98–99% of fields with mode 4, 79–88% with modes 3 and 11).
 */
export async function startTesseract(
  langPath: string,
  onError: (error: unknown) => void,
): Promise<OcrEngine> {
  // Loaded with the first engine (the pool starts lazily), not at the server's start.
  const { createWorker, OEM, PSM } = await import('tesseract.js');
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const starting = createWorker([...OCR_LANGS], OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    // Without a handler tesseract.js rethrows a failed job inside its message listener: an uncaught
    // exception that would end the server. The job's own promise still rejects.
    errorHandler: onError,
  });
  const worker = await Promise.race([
    starting,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error('text recognition worker did not start'));
      }, START_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  // A late start after the timeout must not leave a thread behind.
  void starting.then(
    (late) => (timedOut ? late.terminate() : undefined),
    () => undefined,
  );

  // The node Worker behind it: tesseract.js sets `onerror`, which a worker_threads Worker never calls, so
  // a crash of the thread (a wasm abort, out of memory) would be an unhandled 'error' event.
  const thread = (worker as unknown as { worker: Thread }).worker;
  let crashed: ((error: unknown) => void) | undefined;
  thread.on('error', (error) => {
    onError(error);
    crashed?.(error);
  });
  thread.on('exit', () => crashed?.(new Error('text recognition worker exited')));

  await worker.setParameters({
    tessedit_pageseg_mode: PSM.SINGLE_COLUMN,
    // The prepared images carry no resolution; without one tesseract guesses and warns on stderr.
    user_defined_dpi: '300',
  });

  return {
    async recognize(image) {
      const died = new Promise<never>((_, reject) => (crashed = reject));
      try {
        const result = await Promise.race([worker.recognize(image), died]);
        return result.data.text;
      } finally {
        crashed = undefined;
      }
    },
    async terminate() {
      crashed = undefined;
      await worker.terminate();
    },
  };
}
