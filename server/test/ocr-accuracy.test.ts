import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD, type OcrResult } from '@campus/protocol';
import { createTextRecognizer } from '../src/lib/ocr';
import { renderIdCards } from './support/id-cards';

/**
 * The issue's bar: at least 95% of the fields of generated ID cards read exactly. Both layouts, five DejaVu
 * faces, 900–1500 px wide, ±2° rotation, noise, blur, dim photos, JPEG/PNG/WebP (seeded: the same cards
 * every run). "Exactly": the number (nim) character for character; the text fields after trimming,
 * collapsing whitespace and ignoring case (cards print the institution in capitals; the parser answers
 * it in title case).
 */
const CARDS = 24;
const FIELDS = ['nama', 'nim', 'kampus', 'jurusan'] as const;
const text = (value: string) => value.replace(/\s+/g, ' ').trim().toLowerCase();
const same = (field: (typeof FIELDS)[number], got: OcrResult, want: OcrResult) =>
  field === 'nim' ? got.nim.trim() === want.nim : text(got[field]) === text(want[field]);

describe('text recognition of generated student-ID cards', () => {
  const langDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-ocr-'));
  const recognizer = createTextRecognizer({ langDir });
  afterAll(async () => {
    await recognizer.close();
    fs.rmSync(langDir, { recursive: true, force: true });
  });

  it(`reads at least 95% of the fields of ${CARDS} cards exactly`, { timeout: 240_000 }, async () => {
    const cards = await renderIdCards(CARDS, 5000);
    expect(new Set(cards.map((c) => c.options.layout))).toEqual(new Set(['ktm', 'english']));
    expect(new Set(cards.map((c) => c.contentType)).size).toBe(3);
    // Uploadable (≤ 2 MB) and "with a photo" by the spec's size rule (> 50,000 bytes).
    for (const card of cards)
      expect(card.bytes.length).toSatisfy((n: number) => n > UPLOAD.photoMinBytes && n <= UPLOAD.maxBytes);

    // As many at a time as the pool has workers (more would wait in, and overflow, its short queue).
    const results: OcrResult[] = [];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < cards.length; i = next++)
        results[i] = await recognizer.recognize(cards[i]!.bytes);
    };
    await Promise.all(Array.from({ length: recognizer.stats.size }, lane));
    const misses: string[] = [];
    let right = 0;
    results.forEach((got, i) => {
      const card = cards[i]!;
      for (const field of FIELDS) {
        if (same(field, got, card.fields)) right++;
        else
          misses.push(
            `seed ${card.options.seed} ${field}: ${JSON.stringify(got[field])} ≠ ${JSON.stringify(card.fields[field])}`,
          );
      }
    });
    const total = CARDS * FIELDS.length;
    // The score, and the misses for whoever has to improve the recognizer.
    console.info(
      `${right}/${total} fields read exactly${misses.length ? `; misses:\n${misses.join('\n')}` : ''}`,
    );
    expect(right / total, misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  });
});
