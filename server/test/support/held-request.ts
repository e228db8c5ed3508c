import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HeldRequest {
  /** Sends the rest of the request and reads the answer until the server closes the connection. */
  finish(rest?: string): Promise<RawResponse>;
  destroy(): void;
}

/**
 * A request already on its way: the connection is open and `head` has been sent (without the blank line
 * that ends the headers, unless `head` has it), so the server counts the connection as busy, not idle.
 * `finish` completes it later, e.g. after a drain began.
 */
export async function holdRequest(port: number, head: string): Promise<HeldRequest> {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  const ended = new Promise<string>((resolve, reject) => {
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(head);
  // Long enough for the server to have read the request's first bytes.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    async finish(rest = '\r\n') {
      socket.write(rest);
      return parse(await ended);
    },
    destroy: () => socket.destroy(),
  };
}

function parse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  // Hono answers JSON with a length, but a chunked answer is read too.
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
