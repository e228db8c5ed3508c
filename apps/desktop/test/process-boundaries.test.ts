import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The process boundaries are the lint's (eslint.config.js): the sandboxed preload and the UI must not load
 * Node built-ins, which fail there at load time (a preload that throws never exposes the bridge, and the app
 * quietly falls back to the browser platform). Checked through ESLint itself, with the repository's config.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The import restrictions `code` breaks, linted as if it were `file` (a real one: typed linting needs it). */
async function restricted(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('process boundaries', () => {
  it('refuse Node built-ins in the preload and the UI, bare or with node:', async () => {
    const builtins = ['fs', 'fs/promises', 'node:fs', 'child_process'];
    const cases: [string, string[]][] = [
      ['apps/desktop/src/preload/bridge.ts', builtins],
      // The UI reaches the desktop only through the Platform contract.
      ['apps/web/src/lib/api.ts', [...builtins, 'electron']],
    ];
    for (const [file, names] of cases)
      for (const name of names)
        expect(
          await restricted(`import * as m from '${name}';\nexport const x = m;\n`, file),
          `${name} in ${file}`,
        ).not.toEqual([]);
  }, 60_000);

  it('leave a module of the code itself alone, though a built-in has its name (./constants)', async () => {
    const code = "import { X } from './constants';\nexport const x = X;\n";
    expect(await restricted(code, 'apps/web/src/lib/api.ts')).toEqual([]);
  }, 60_000);

  it('let the main process use them', async () => {
    expect(
      await restricted(
        "import fs from 'node:fs';\nexport const x = fs;\n",
        'apps/desktop/src/main/app-files.ts',
      ),
    ).toEqual([]);
  }, 60_000);
});
