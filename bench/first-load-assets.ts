import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Bytes of a set of built files: as served (raw) and gzipped at level 9 (what Vite's report prints). */
export interface Bytes {
  files: number;
  raw: number;
  gzip: number;
}

export function bytesOf(dist: string, paths: Iterable<string>): Bytes {
  const total: Bytes = { files: 0, raw: 0, gzip: 0 };
  for (const urlPath of paths) {
    const content = fs.readFileSync(path.join(dist, urlPath));
    total.files += 1;
    total.raw += content.length;
    total.gzip += zlib.gzipSync(content, { level: 9 }).length;
  }
  return total;
}

/** Only the JavaScript and CSS of the build: fonts, images and source maps are not what the issue counts. */
export function isCodeAsset(urlPath: string): boolean {
  return urlPath.startsWith('/assets/') && /\.(?:js|css)$/.test(urlPath);
}

/**
 * What dist/index.html makes the browser fetch before any code runs: the entry script, its modulepreload
 * links (the chunks the entry imports statically) and stylesheets.
 */
export function entryImports(dist: string): string[] {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const found = new Set<string>();
  for (const match of html.matchAll(/(?:src|href)="(\/assets\/[^"?#]+)"/g)) {
    if (match[1] && isCodeAsset(match[1])) found.add(match[1]);
  }
  return [...found];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
