import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Config } from '../config';
import type { DB } from '../lib/db/database';
import { createStorage, newDocumentKey } from '../lib/storage';

/** Text for an SVG: the five characters XML gives meaning to, escaped. */
function xml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain student ID card (Indonesian KTM layout) with the student's name, for the admin demo. */
async function renderCard(name: string, college: string, major: string): Promise<Buffer> {
  const lines = [
    ['KARTU TANDA MAHASISWA', 60, 34, 'bold'],
    [college.toUpperCase(), 110, 26, 'bold'],
    [`Nama      : ${name.toUpperCase()}`, 230, 30, 'normal'],
    ['NIM       : 2023104417', 290, 30, 'normal'],
    [`Jurusan   : ${major}`, 350, 30, 'normal'],
  ] as const;
  const text = lines
    .map(
      ([t, y, size, weight]) =>
        `<text x="330" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}">${xml(t)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="690">
    <rect width="1100" height="690" fill="#fdfcf7"/><rect width="1100" height="16" fill="#1d4ed8"/>
    <rect x="40" y="180" width="250" height="320" fill="#c7cbd6"/>
    <circle cx="165" cy="290" r="70" fill="#9aa1b2"/><rect x="75" y="380" width="180" height="120" rx="60" fill="#9aa1b2"/>
    ${text}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

/**
 * The demo's pending student has a document waiting in /admin/documents, as a real submission leaves it:
 * the file in storage, the document row, the 'submit' history entry and the user's current document. Sent
 * for manual review, so the seed needs no text recognition.
 */
export async function seedDemoDocument(
  db: DB,
  config: Pick<Config, 'dataDir' | 'storage'>,
  user: { id: string; name: string; college: string; major: string },
  now: number,
): Promise<void> {
  const bytes = await renderCard(user.name, user.college, user.major);
  const key = newDocumentKey(user.id);
  await (await createStorage(config, () => now)).put(key, bytes, 'image/jpeg');
  const documentId = randomUUID();
  const at = new Date(now).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('documents')
      .values({
        id: documentId,
        user_id: user.id,
        storage_key: key,
        content_type: 'image/jpeg',
        size: bytes.length,
        manual: 1,
        client_recognized: null,
        server_check: JSON.stringify({ verdict: 'skipped', problems: [], recognized: null }),
        submitted_at: at,
      })
      .execute();
    await trx
      .insertInto('document_decisions')
      .values({
        id: randomUUID(),
        user_id: user.id,
        document_id: documentId,
        actor_id: user.id,
        action: 'submit',
        reason: null,
        from_status: 'pending_submission',
        to_status: 'pending_verification',
        created_at: at,
      })
      .execute();
    await trx
      .updateTable('users')
      .set({ current_document_id: documentId, document_submitted_at: at })
      .where('id', '=', user.id)
      .execute();
  });
}
