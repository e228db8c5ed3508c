import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/lib/logger';
import { DevMailbox } from '../src/lib/mail/dev-mailbox';
import { decideMailPolicy, isLoopbackHost, StartupRefused } from '../src/lib/mail/mail-policy';
import { devMailboxRoutes } from '../src/modules/dev/routes';
import { startServer } from '../src/server';
import { startTestServer } from './support/test-server';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-mailbox-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const policy = (host: string, extra: Partial<Parameters<typeof decideMailPolicy>[0]> = {}) =>
  decideMailPolicy({ host, smtpUrl: undefined, nodeEnv: 'development', devMailbox: false, ...extra });

describe('which addresses count as loopback', () => {
  it('accepts 127.0.0.0/8, ::1 and localhost, and nothing that other machines reach', () => {
    for (const host of ['127.0.0.1', '127.3.2.1', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.1', 'campus.example', '128.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('mail policy', () => {
  it('serves the dev mailbox on loopback outside production only', () => {
    expect(policy('127.0.0.1')).toEqual({ kind: 'dev-mailbox' });
    expect(policy('127.0.0.1', { nodeEnv: 'production' }).kind).toBe('none');
    expect(policy('0.0.0.0', { nodeEnv: 'production', devMailbox: true }).kind).toBe('none');
    expect(policy('0.0.0.0', { smtpUrl: 'smtp://mail:25' }).kind).toBe('smtp');
  });

  it('refuses a non-loopback listener without SMTP_URL, naming the variable to set', () => {
    const refused = policy('0.0.0.0');
    expect(refused.kind).toBe('refuse');
    expect(refused.kind === 'refuse' && refused.message).toContain('SMTP_URL');
  });

  it('serves it anyway with DEV_MAILBOX=1, with a warning', () => {
    const optedIn = policy('0.0.0.0', { devMailbox: true });
    expect(optedIn.kind).toBe('dev-mailbox');
    expect(optedIn.kind === 'dev-mailbox' && optedIn.warning).toContain('DEV_MAILBOX=1');
  });

  it('reads DEV_MAILBOX=1 from the environment, and nothing else as yes', () => {
    expect(loadConfig({ DEV_MAILBOX: '1' }).devMailbox).toBe(true);
    expect(loadConfig({ DEV_MAILBOX: 'yes' }).devMailbox).toBe(false);
    expect(loadConfig({}).devMailbox).toBe(false);
  });
});

describe('server start', () => {
  it('does not start on 0.0.0.0 without SMTP_URL, and leaves no database behind', async () => {
    const dataDir = path.join(tmp, 'refused');
    const starting = startServer({
      config: {
        host: '0.0.0.0',
        port: 0,
        dataDir,
        nodeEnv: 'development',
        logLevel: 'silent',
        smtpUrl: undefined,
      },
    });
    await expect(starting).rejects.toBeInstanceOf(StartupRefused);
    await expect(starting).rejects.toThrow(/SMTP_URL/);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('serves /dev/mailbox.json on 0.0.0.0 only with DEV_MAILBOX=1', async () => {
    const server = await startTestServer({
      config: { host: '0.0.0.0', devMailbox: true, smtpUrl: undefined },
    });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/dev/mailbox.json`);
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('main.ts prints what to set and exits 1; with DEV_MAILBOX=1 it starts and logs a warning', async () => {
    const refused = await runMain({ HOST: '0.0.0.0' }, () => false);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Set SMTP_URL');
    expect(refused.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    const optedIn = await runMain({ HOST: '0.0.0.0', DEV_MAILBOX: '1' }, (out) =>
      out.includes('Campus Talk is listening'),
    );
    expect(optedIn.stdout).toMatch(/"level":40.*DEV_MAILBOX=1/);
  }, 30_000);
});

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** Runs the real entry point until it exits or `ready` sees what it waits for, then stops it. */
function runMain(
  env: Record<string, string>,
  ready: (stdout: string) => boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(path.join(serverDir, 'node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      SMTP_URL: '',
      NODE_ENV: 'development',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: fs.mkdtempSync(path.join(tmp, 'main-')),
      WEB_DIST: path.join(tmp, 'no-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`main.ts neither exited nor got ready:\n${stdout}\n${stderr}`));
    }, 25_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (ready(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a dev mailbox on a loopback listener behind a same-host proxy', () => {
  it('answers only requests made on this machine directly: any forwarding header means 404', async () => {
    const server = await startTestServer({ config: { smtpUrl: undefined } });
    try {
      const get = (pathname: string, headers: Record<string, string> = {}) =>
        fetch(`${server.url}${pathname}`, { headers });
      expect((await get('/dev/mailbox.json')).status).toBe(200);
      const forwarded: Record<string, string>[] = [
        { 'x-forwarded-for': '203.0.113.9' },
        { forwarded: 'for=203.0.113.9;proto=https' },
        { 'x-real-ip': '203.0.113.9' },
        { via: '1.1 proxy.example' },
        { 'cf-connecting-ip': '203.0.113.9' },
        { 'true-client-ip': '203.0.113.9' },
        { 'x-forwarded-host': 'campus.example' },
        { 'X-Forwarded-For': '127.0.0.1' },
      ];
      for (const headers of forwarded) {
        for (const pathname of ['/dev/mailbox.json', '/dev/mailbox']) {
          const res = await get(pathname, headers);
          expect(res.status, `${pathname} ${JSON.stringify(headers)}`).toBe(404);
          expect(await res.text()).not.toContain('mails');
        }
      }
    } finally {
      await server.close();
    }
  });

  it('answers 404 to a peer that is not loopback', async () => {
    const routes = devMailboxRoutes(new DevMailbox(createLogger('silent')), { localOnly: true });
    const from = (remoteAddress: string) =>
      routes.request('/mailbox.json', {}, { incoming: { socket: { remoteAddress } } });
    expect((await from('192.0.2.10')).status).toBe(404);
    expect((await from('::ffff:10.0.0.2')).status).toBe(404);
    expect((await from('::1')).status).toBe(200);
    expect((await from('::ffff:127.0.0.1')).status).toBe(200);
  });
});
