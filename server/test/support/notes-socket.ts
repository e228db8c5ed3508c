import WebSocket from 'ws';
import * as Y from 'yjs';
import { NOTES, NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX } from '@campus/protocol';
import type { TestServer } from './test-server';

/** lib0's unsigned varint, as y-protocols writes lengths. */
function varUint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push(0x80 | (n & 0x7f));
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A y-protocols sync "update" message (type 0, sub-type 2) that inserts `text` into a fresh document. */
export function notesInsertFrame(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getText(NOTES.textName).insert(0, text);
  const update = Y.encodeStateAsUpdate(doc);
  return Uint8Array.from([0, 2, ...varUint(update.length), ...update]);
}

/** A raw `/notes/:groupId` socket that records what it receives and how it closed. */
export class NotesSocket {
  received = 0;
  closeCode: number | undefined;
  private readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', () => (this.received += 1));
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
  }

  static async open(server: TestServer, groupId: string, token: string): Promise<NotesSocket> {
    const url = `${server.url.replace(/^http/, 'ws')}/notes/${groupId}`;
    const socket = new NotesSocket(new WebSocket(url, [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + token]));
    await new Promise<void>((resolve, reject) => {
      socket.ws.once('open', () => resolve());
      socket.ws.once('error', reject);
    });
    return socket;
  }

  waitClose(timeoutMs = 5000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('timed out waiting for the notes socket to close')),
        timeoutMs,
      );
    });
    return Promise.race([this.closed, timeout]).finally(() => clearTimeout(timer));
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }
}
