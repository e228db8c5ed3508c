import { BlockList, isIPv6 } from 'node:net';
import type { Config } from '../../config';

/** How the server delivers mail, decided once at start from SMTP_URL, NODE_ENV, HOST and DEV_MAILBOX. */
export type MailPolicy =
  | { kind: 'smtp'; smtpUrl: string }
  /** The in-memory dev mailbox, served at /dev/mailbox; `warning` is logged at start when set. */
  | { kind: 'dev-mailbox'; warning?: string }
  /** Production without SMTP: mail fails, and nothing serves the codes. */
  | { kind: 'none'; warning: string }
  /** The server must not start: its mailbox would hand out sign-up and reset codes to anyone. */
  | { kind: 'refuse'; message: string };

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
loopback.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/**
 * True when only this machine can reach a listener on `host`. 0.0.0.0, :: and any other name are not:
 * a name could resolve to a public address.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  // A name that is not an IP literal is never in the list.
  return loopback.check(bare, isIPv6(bare) ? 'ipv6' : 'ipv4');
}

/**
 * The dev mailbox lists every code the server mails (sign-up, password reset), so whoever can open
 * /dev/mailbox.json can take over any account. It is served only outside production on a loopback
 * listener, or where the operator opted in with DEV_MAILBOX=1 (a LAN demo), which is logged as a warning.
 */
export function decideMailPolicy(
  config: Pick<Config, 'smtpUrl' | 'nodeEnv' | 'host' | 'devMailbox'>,
): MailPolicy {
  if (config.smtpUrl) return { kind: 'smtp', smtpUrl: config.smtpUrl };
  if (config.nodeEnv === 'production')
    return {
      kind: 'none',
      warning: 'SMTP_URL is not set: mail cannot be delivered in production and the dev mailbox is disabled',
    };
  if (isLoopbackHost(config.host)) return { kind: 'dev-mailbox' };
  if (config.devMailbox)
    return {
      kind: 'dev-mailbox',
      warning: `DEV_MAILBOX=1: the dev mailbox at /dev/mailbox shows every sign-up and password-reset code to anyone who can reach ${config.host}; set SMTP_URL instead for anything but a trusted network`,
    };
  return {
    kind: 'refuse',
    message: `HOST=${config.host} is reachable from other machines, and without SMTP_URL the server would show every sign-up and password-reset code at /dev/mailbox. Set SMTP_URL (e.g. smtp://user:pass@mail.example.com:587) to send mail, listen on 127.0.0.1, or set DEV_MAILBOX=1 to serve the dev mailbox anyway on a trusted network.`,
  };
}

/** Thrown by startServer when the configuration is unsafe; main.ts prints its message without a stack. */
export class StartupRefused extends Error {
  override name = 'StartupRefused';
}
