import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createTextRecognizer,
  defaultPoolSize,
  OcrBusyError,
  OcrTimeoutError,
  type OcrEngine,
} from '../src/lib/ocr';
import { OcrPool } from '../src/lib/ocr/pool';
import { renderIdCard } from './support/id-cards';

/** Engines whose recognitions the test finishes by hand. */
function fakeEngines() {
  const pending: { resolve: (text: string) => void }[] = [];
  const terminated: number[] = [];
  let next = 0;
  const start = async (): Promise<OcrEngine> => {
    const id = next++;
    return {
      recognize: () => new Promise<string>((resolve) => pending.push({ resolve })),
      terminate: async () => {
        terminated.push(id);
      },
    };
  };
  return { start, pending, terminated };
}

/** Text fields compared without case (the card prints the campus in capitals); the number exactly. */
const lower = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k === 'nim' ? v : v.toLowerCase()]));
const tick = () => new Promise((r) => setTimeout(r, 5));
const image = Buffer.from('prepared');

describe('OcrPool', () => {
  it('starts nothing before the first job, then one engine per waiting job up to its size, and reuses them', async () => {
    const engines = fakeEngines();
    const pool = new OcrPool({ size: 2, start: engines.start, timeoutMs: 10_000, maxQueue: 8 });
    expect(pool.stats.started).toBe(0);

    const first = pool.recognize(image);
    await tick();
    expect(pool.stats).toMatchObject({ started: 1, live: 1, busy: 1 });
    engines.pending.shift()!.resolve('one');
    expect(await first).toBe('one');

    // The idle engine takes the next job: no new start.
    const second = pool.recognize(image);
    await tick();
    expect(pool.stats.started).toBe(1);
    engines.pending.shift()!.resolve('two');
    expect(await second).toBe('two');

    // Three at once: a second engine starts, the third job waits for one of the two.
    const burst = [pool.recognize(image), pool.recognize(image), pool.recognize(image)];
    await tick();
    expect(pool.stats).toMatchObject({ started: 2, live: 2, busy: 2, queued: 1 });
    for (let i = 0; i < 3; i++) {
      engines.pending.shift()!.resolve(`b${i}`);
      await tick();
    }
    expect(await Promise.all(burst)).toEqual(['b0', 'b1', 'b2']);
    expect(pool.stats.started).toBe(2);
    await pool.close();
    expect(engines.terminated.sort()).toEqual([0, 1]);
  });

  it('refuses jobs beyond its queue at once', async () => {
    const engines = fakeEngines();
    const pool = new OcrPool({ size: 1, start: engines.start, timeoutMs: 10_000, maxQueue: 2 });
    const accepted = [pool.recognize(image), pool.recognize(image)];
    await expect(pool.recognize(image)).rejects.toBeInstanceOf(OcrBusyError);
    await pool.close();
    // Closing fails what was still waiting rather than leaving requests hanging.
    await expect(Promise.all(accepted)).rejects.toBeInstanceOf(OcrBusyError);
    await expect(pool.recognize(image)).rejects.toBeInstanceOf(OcrBusyError);
  });

  it('ends an engine that runs out of time and starts a fresh one for the next job', async () => {
    const engines = fakeEngines();
    const pool = new OcrPool({ size: 1, start: engines.start, timeoutMs: 50, maxQueue: 4 });
    await expect(pool.recognize(image)).rejects.toBeInstanceOf(OcrTimeoutError);
    expect(engines.terminated).toEqual([0]);
    const next = pool.recognize(image);
    await tick();
    expect(pool.stats.started).toBe(2);
    engines.pending.at(-1)!.resolve('fresh');
    expect(await next).toBe('fresh');
    await pool.close();
  });

  it('fails the waiting jobs when no engine can start', async () => {
    const pool = new OcrPool({
      size: 2,
      start: () => Promise.reject(new Error('models missing')),
      timeoutMs: 1000,
      maxQueue: 4,
    });
    await expect(pool.recognize(image)).rejects.toThrow('models missing');
    await pool.close();
  });
});

describe('createTextRecognizer with tesseract.js', () => {
  const langDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-ocr-'));
  const recognizer = createTextRecognizer({ langDir });
  afterAll(async () => {
    await recognizer.close();
    fs.rmSync(langDir, { recursive: true, force: true });
  });

  it('is sized to the cores, at most 4', () => {
    expect(defaultPoolSize()).toBe(Math.min(4, os.availableParallelism()));
    expect(recognizer.stats.size).toBe(defaultPoolSize());
  });

  it(
    'loads the models on the first image only, and reuses its worker for the second',
    { timeout: 90_000 },
    async () => {
      expect(recognizer.stats.started).toBe(0);
      expect(fs.readdirSync(langDir)).toEqual([]);
      const one = await renderIdCard({ seed: 7, layout: 'ktm', format: 'png' });
      const two = await renderIdCard({ seed: 8, layout: 'english', format: 'jpeg' });

      expect(lower(await recognizer.recognize(one.bytes))).toEqual(lower(one.fields));
      expect(recognizer.stats.started).toBe(1);
      expect(fs.readdirSync(langDir).sort()).toEqual(['eng.traineddata.gz', 'ind.traineddata.gz']);

      const second = await recognizer.recognize(two.bytes);
      expect(second.nim).toBe(two.fields.nim);
      expect(second.nama.toLowerCase()).toBe(two.fields.nama.toLowerCase());
      expect(recognizer.stats).toMatchObject({ started: 1, live: 1 });
    },
  );
});
