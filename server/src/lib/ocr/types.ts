import type { OcrResult } from '@campus/protocol';

/**
 * Text recognition of student-ID cards (issue 11): reads an image's text offline and parses the card's
 * fields (nama, nim, kampus, jurusan; Indonesian KTM and English layouts). Implemented in lib/ocr with a
 * tesseract.js worker pool; `deps.ocr` in the app.
 */
export interface TextRecognizer {
  /** An image's bytes (JPEG, PNG or WebP) → the card's fields; a field not found is ''. Throws on a bad image. */
  recognize(image: Uint8Array): Promise<OcrResult>;
  /** Ends the workers (server stop). */
  close(): Promise<void>;
}
