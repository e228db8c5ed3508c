import os from 'node:os';
import type { OcrResult } from '@campus/protocol';
import type { Logger } from '../logger';
import { prepareLangDir } from './lang-data';
import { parseIdCardText } from './parse';
import { OcrBusyError, OcrPool, type OcrEngine } from './pool';
import { prepareForOcr } from './preprocess';
import { startTesseract } from './tesseract';
import type { TextRecognizer } from './types';

export type { TextRecognizer } from './types';
export { OcrBusyError, OcrTimeoutError, type OcrEngine } from './pool';
export { OcrInputError, OCR_INPUT } from './preprocess';
export { parseIdCardText } from './parse';

/**
 * Engines: one per core, at most 4. A recognition is ~1 s of one core with no I/O to overlap, so more
 * engines than cores only add ~100 MB each of models and image buffers, and past 4 a student-ID burst is
 * better queued than spread over every core the chat server needs too.
 */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

export interface RecognizerOptions {
  /** Where both languages' models are gathered (DATA_DIR/tessdata in the server). */
  langDir: string;
  poolSize?: number;
  /** Per recognition (default 30 s: a card takes ~1 s; the rest is room for a loaded machine). */
  timeoutMs?: number;
  /** Waiting jobs at most (default 4 per engine); more are answered "busy" at once. */
  maxQueue?: number;
  log?: Logger;
  /** Starts an engine on the prepared model folder (tests inject slow or failing ones). */
  startEngine?: (langPath: string) => Promise<OcrEngine>;
}

export interface TesseractRecognizer extends TextRecognizer {
  /** The raw text of an image (the benchmark and diagnostics). */
  readText(image: Uint8Array): Promise<string>;
  readonly stats: OcrPool['stats'] & { size: number };
}

/**
 * The server's text recognition (`deps.ocr`): sharp pre-processing, a lazily started tesseract.js pool,
 * and the ID-card parser. Nothing starts before the first image: a server that never sees an upload never
 * loads the models.
 */
export function createTextRecognizer(options: RecognizerOptions): TesseractRecognizer {
  const size = options.poolSize ?? defaultPoolSize();
  const startEngine =
    options.startEngine ??
    ((langPath: string) =>
      startTesseract(langPath, (error) =>
        options.log?.warn({ err: error }, 'text recognition worker error'),
      ));
  let langDir: Promise<string> | undefined;
  const pool = new OcrPool({
    size,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxQueue: options.maxQueue ?? size * 4,
    start: async () => {
      langDir ??= prepareLangDir(options.langDir).catch((error: unknown) => {
        langDir = undefined; // a full disk may be fixed: try again on the next image
        throw error;
      });
      return startEngine(await langDir);
    },
  });

  async function readText(image: Uint8Array): Promise<string> {
    // Decoding and scaling cost ~50–100 ms of CPU: not spent on an image the queue would refuse anyway.
    if (pool.saturated) throw new OcrBusyError('text recognition is saturated');
    return pool.recognize(await prepareForOcr(image));
  }

  return {
    readText,
    async recognize(image: Uint8Array): Promise<OcrResult> {
      return parseIdCardText(await readText(image));
    },
    close: () => pool.close(),
    get stats() {
      return { ...pool.stats, size };
    },
  };
}

/** For one-off commands, which never read an ID card: any call fails. */
export function disabledTextRecognizer(): TextRecognizer {
  return {
    recognize: () => Promise.reject(new Error('text recognition is not available here')),
    close: () => Promise.resolve(),
  };
}
