import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { keepFilePrivate, makePrivateDir } from '../private-files';

export interface VapidKeys {
  /** P-256 public key, URL-safe base64: what browsers subscribe with (applicationServerKey). */
  publicKey: string;
  privateKey: string;
}

function isVapidKeys(value: unknown): value is VapidKeys {
  if (typeof value !== 'object' || value === null) return false;
  const { publicKey, privateKey } = value as Record<string, unknown>;
  return typeof publicKey === 'string' && typeof privateKey === 'string' && !!publicKey && !!privateKey;
}

/**
 * The installation's VAPID key pair, made on first start and kept beside the other keys in DATA_DIR
 * (readable only by the server's user). It must survive restarts: every browser subscription is bound to
 * the public key it was made with, so a new pair would silently orphan them all.
 */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, 'keys', 'vapid.json');
  // Tightened at every start: an earlier version may have left keys/ 0755 and the pair 0644.
  makePrivateDir(path.dirname(file));
  keepFilePrivate(file);
  try {
    const stored: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!isVapidKeys(stored)) throw new Error(`${file} does not hold a VAPID key pair`);
    return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = webpush.generateVAPIDKeys();
  // 'wx': two servers starting on one DATA_DIR must not overwrite each other's freshly made pair.
  try {
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateVapidKeys(dataDir);
    throw error;
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

/** `mailto:` of the address in MAIL_FROM ('Name <a@b>' or 'a@b'): push services contact it about abuse. */
export function vapidSubject(mailFrom: string): string {
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return /^[^\s@]+@[^\s@]+$/.test(address) ? `mailto:${address}` : 'mailto:no-reply@campustalk.local';
}
