import type WebSocket from 'ws';

/** An already encoded JSON frame still goes out as a text frame (`ws` sends Buffers as binary by default). */
export const TEXT_FRAME = { binary: false } as const;

interface Corkable {
  cork(): void;
  uncork(): void;
}

/** The TCP socket under a `ws` WebSocket (`ws` keeps it in a field it does not type), to cork writes. */
export function tcpSocket(ws: WebSocket): Corkable | undefined {
  return (ws as unknown as { _socket?: Corkable | null })._socket ?? undefined;
}
