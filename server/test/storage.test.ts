import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStorage, newFileKey } from '../src/lib/storage';
import { cleanFileName, sniffContent } from '../src/lib/storage/sniff';
import { createUrlSigner } from '../src/lib/storage/url-signer';
import { attachmentDisposition } from '../src/modules/attachments/file-routes';
import { toDirectConversation, toGroupConversation, toGroupMessage } from '../src/modules/chat/mappers';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(
    values.flatMap((v) => (typeof v === 'string' ? Array.from(Buffer.from(v, 'latin1')) : [v])),
  );

describe('sniffContent', () => {
  it('recognises images by their magic bytes, whatever the name', () => {
    expect(sniffContent(bytes(0x89, 'PNG\r\n\x1a\n', 0, 0), 'x.txt')).toEqual({
      kind: 'image',
      contentType: 'image/png',
    });
    expect(sniffContent(bytes(0xff, 0xd8, 0xff, 0xe0), 'photo')).toEqual({
      kind: 'image',
      contentType: 'image/jpeg',
    });
    expect(sniffContent(bytes('GIF89a', 1, 0), 'a.gif')?.contentType).toBe('image/gif');
    expect(sniffContent(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '), 'a.webp')?.contentType).toBe('image/webp');
    // RIFF that is not WEBP (a WAV file) is not an image, and not text either.
    expect(sniffContent(bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt '), 'a.webp')).toBeNull();
  });

  it('accepts PDF, ZIP-based office files and UTF-8 text as files', () => {
    expect(sniffContent(bytes('%PDF-1.7\n'), 'a.png')).toEqual({
      kind: 'file',
      contentType: 'application/pdf',
    });
    const zip = bytes('PK', 3, 4, 20, 0);
    expect(sniffContent(zip, 'report.DOCX')?.contentType).toMatch(/wordprocessingml/);
    expect(sniffContent(zip, 'sheet.xlsx')?.contentType).toMatch(/spreadsheetml/);
    expect(sniffContent(zip, 'slides.pptx')?.contentType).toMatch(/presentationml/);
    expect(sniffContent(zip, 'archive.zip')?.contentType).toBe('application/zip');
    expect(sniffContent(new TextEncoder().encode('naïve café 1 < 2'), 'a.txt')).toEqual({
      kind: 'file',
      contentType: 'text/plain; charset=utf-8',
    });
  });

  it('refuses markup, binaries, invalid UTF-8 and empty files', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(sniffContent(enc('<html><body>hi</body></html>'), 'a.png')).toBeNull();
    expect(sniffContent(enc('  \n<svg onload="x()"/>'), 'a.txt')).toBeNull();
    expect(sniffContent(enc('<?xml version="1.0"?><a/>'), 'a.txt')).toBeNull();
    expect(sniffContent(enc('hello <script>alert(1)</script>'), 'a.txt')).toBeNull();
    expect(sniffContent(bytes('abc', 0, 'def'), 'a.txt')).toBeNull();
    expect(sniffContent(bytes(0xc3, 0x28), 'a.txt')).toBeNull();
    expect(sniffContent(new Uint8Array(0), 'a.txt')).toBeNull();
  });
});

describe('file names', () => {
  it('keeps only a safe display name', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\[draft] notes.txt')).toBe('draft notes.txt');
    expect(cleanFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(cleanFileName('')).toBe('attachment');
    expect(cleanFileName('x'.repeat(300))).toHaveLength(120);
  });

  it('writes RFC 5987 Content-Disposition with an ASCII fallback', () => {
    expect(attachmentDisposition('résumé "final".pdf')).toBe(
      `attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(attachmentDisposition("it's (1).txt")).toBe(
      `attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`,
    );
  });
});

describe('signed URLs', () => {
  let now = 1_700_000_000_000;
  const signer = createUrlSigner(Buffer.alloc(32, 7), () => now);
  const key = newFileKey();

  it('verify what they signed until expiry, and nothing altered', () => {
    const url = new URL(signer.sign(key, 3600), 'http://x');
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    expect(Number(exp)).toBe(now / 1000 + 3600);
    expect(signer.verify(key, exp, sig)).toBe('ok');
    expect(signer.verify(newFileKey(), exp, sig)).toBe('invalid');
    expect(signer.verify(key, String(Number(exp) + 1), sig)).toBe('invalid');
    expect(signer.verify(key, exp, sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'))).toBe('invalid');
    expect(signer.verify(key, exp, undefined)).toBe('invalid');
    expect(signer.verify(key, exp, 'zz')).toBe('invalid');
    expect(createUrlSigner(Buffer.alloc(32, 8), () => now).verify(key, exp, sig)).toBe('invalid');
    now += 3601 * 1000;
    expect(signer.verify(key, exp, sig)).toBe('expired');
  });
});

describe('local storage driver', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-storage-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores under DATA_DIR/uploads, reads back, deletes, and refuses keys that are not ours', async () => {
    const storage = await createStorage({ dataDir: dir, storage: { driver: 'local' } }, Date.now);
    const key = newFileKey();
    await storage.put(key, Uint8Array.from([1, 2, 3]), 'application/pdf');
    expect(fs.existsSync(path.join(dir, 'uploads', key.slice(0, 2), key))).toBe(true);
    const file = await storage.get(key);
    expect(file?.size).toBe(3);
    expect([...new Uint8Array(await new Response(file!.body).arrayBuffer())]).toEqual([1, 2, 3]);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.put('../../evil', Uint8Array.from([1]), 'x')).rejects.toThrow();
    expect(fs.existsSync(path.join(dir, 'keys', 'files.key'))).toBe(true);
  });
});

describe('mappers', () => {
  const user = { id: 'u1', first_name: 'Priya', last_name: 'Sharma', profile_picture_url: null };

  it('cut snippets at 30 characters and never report negative unread counts', () => {
    const item = toDirectConversation({
      peer: { ...user, last_active_at: null },
      unread_count: -1,
      last_content: 'a'.repeat(31),
      last_created_at: '2026-11-23T10:00:00.000Z',
    });
    expect(item).toMatchObject({
      id: 'u1',
      name: 'Priya Sharma',
      unreadCount: 0,
      isGroup: false,
      email: null,
    });
    expect(item.lastMessageSnippet).toBe(`${'a'.repeat(30)}...`);
  });

  it('give a group without messages its creation time and an empty snippet', () => {
    const group = {
      id: 'g1',
      name: 'Lab',
      created_by: 'u1',
      created_at: '2026-11-23T09:00:00.000Z',
      avatar_url: null,
    };
    expect(
      toGroupConversation({ group, unread: 0, last_content: null, last_created_at: null }),
    ).toMatchObject({
      lastMessageSnippet: '',
      lastMessageTimestamp: group.created_at,
      isGroup: true,
      email: null,
    });
  });

  it('point attachments at the stable /files path', () => {
    const message = toGroupMessage(
      {
        id: 'm1',
        group_id: 'g1',
        content: '[Image: a.png]',
        created_at: '2026-11-23T09:00:00.000Z',
        attachment_key: 'ab'.repeat(16),
        attachment_type: 'image',
        seq: 7,
      },
      { id: 'u1', firstName: 'P', lastName: 'S', profilePictureUrl: null },
    );
    expect(message.attachmentUrl).toBe(`/files/${'ab'.repeat(16)}`);
    expect(message.status).toBe('sent');
  });
});
