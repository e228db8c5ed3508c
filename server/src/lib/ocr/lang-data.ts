import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The languages read: English cards and Indonesian KTMs. */
export const OCR_LANGS = ['eng', 'ind'] as const;

/**
 * The LSTM-only models (`4.0.0_best_int`): what tesseract.js itself downloads for OEM 1, a quarter of the
 * size of the packages' default `4.0.0` folder (which adds the legacy engine's data we never load).
 */
const MODEL_FOLDER = '4.0.0_best_int';

/** Where `@tesseract.js-data/<lang>` keeps the gzipped model we use. */
export function packagedModel(lang: string): string {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
  return path.join(root, MODEL_FOLDER, `${lang}.traineddata.gz`);
}

/**
 * Puts every language's model in one folder and answers it: tesseract.js reads all languages of
 * `eng+ind` from a single `langPath`, and each npm package ships its own folder.
 *
 * The folder is under DATA_DIR, not os.tmpdir(): the server's own directory, so no other local user can
 * plant a model there before us, and no tmp cleaner removes it while the server runs (workers start
 * lazily, long after boot). A hard link costs nothing where node_modules and DATA_DIR share a file system;
 * elsewhere the ~4 MB are copied once. Files are written under a temporary name and renamed, so a second
 * server on the same DATA_DIR never reads half a file; a file of the wrong size (an upgraded package, an
 * interrupted copy before renames were used) is replaced.
 */
export async function prepareLangDir(dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  for (const lang of OCR_LANGS) {
    const source = packagedModel(lang);
    const target = path.join(dir, `${lang}.traineddata.gz`);
    const [want, have] = await Promise.all([fs.stat(source), fs.stat(target).catch(() => undefined)]);
    if (have?.size === want.size) continue;
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    try {
      await fs.link(source, temp);
    } catch {
      await fs.copyFile(source, temp);
    }
    await fs.rename(temp, target);
  }
  return dir;
}
