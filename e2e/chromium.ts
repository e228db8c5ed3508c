import fs from 'node:fs';

/**
 * The browser the end-to-end tests drive: CHROMIUM_PATH when set (scripts/bootstrap.sh sets it), else
 * Debian's Chromium headless shell, else Debian's full Chromium; on a laptop with neither, Playwright's own.
 *
 * The headless shell first because it is what a headless test needs and nothing more (Playwright's own
 * default for headless runs): on the 2-core CI machine (2026-11-28) the suite on SQLite took 2.7 min and
 * 117 s of CPU with it against 3.8 min and 168 s with the full browser, and the suite on PostgreSQL
 * 3.8 min (5.0 with the full browser in CI the day before), every test passing the same (fake media, the
 * fake camera, WebRTC through coturn).
 */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file));
}

/**
 * Playwright's launch options for that browser: the flags every test needs in a container without a GPU,
 * then `extraArgs`. A spec's own `launchOptions` replaces the project's whole, so each spec that needs
 * fake devices builds its options here too rather than repeating the common flags.
 */
export function chromiumLaunch(extraArgs: readonly string[] = []) {
  return {
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', ...extraArgs],
  };
}
