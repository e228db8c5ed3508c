/**
 * Decides what an upload is from its bytes, never from its name or the client's content type.
 * Only formats a browser cannot run are accepted: no HTML, SVG or XML, which could carry scripts.
 */
export interface SniffedType {
  kind: 'image' | 'file';
  contentType: string;
}

const startsWith = (bytes: Uint8Array, magic: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + magic.length && magic.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string): number[] => Array.from(text, (ch) => ch.charCodeAt(0));

const IMAGES: {
  magic: number[];
  offset?: number;
  contentType: string;
  also?: { magic: number[]; offset: number };
}[] = [
  { magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], contentType: 'image/png' },
  { magic: [0xff, 0xd8, 0xff], contentType: 'image/jpeg' },
  { magic: ascii('GIF87a'), contentType: 'image/gif' },
  { magic: ascii('GIF89a'), contentType: 'image/gif' },
  { magic: ascii('RIFF'), contentType: 'image/webp', also: { magic: ascii('WEBP'), offset: 8 } },
];

/** Office Open XML documents are ZIP files; the name only picks the friendlier type among zip ones. */
const OFFICE_TYPES: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const ZIP_MAGICS = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
];

/** Markup a browser would render or run if it ever ignored our headers. */
const MARKUP = /<\s*(!doctype|html|head|body|script|svg|iframe|object|embed|style|meta|link|\?xml|xml)\b/i;

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

function plainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  return !MARKUP.test(text) && !text.trimStart().startsWith('<');
}

/** The type of an upload, or null when it is not one we accept (answered 415). */
export function sniffContent(bytes: Uint8Array, fileName: string): SniffedType | null {
  for (const image of IMAGES) {
    if (
      startsWith(bytes, image.magic, image.offset) &&
      (!image.also || startsWith(bytes, image.also.magic, image.also.offset))
    )
      return { kind: 'image', contentType: image.contentType };
  }
  if (startsWith(bytes, ascii('%PDF-'))) return { kind: 'file', contentType: 'application/pdf' };
  if (ZIP_MAGICS.some((magic) => startsWith(bytes, magic))) {
    return { kind: 'file', contentType: OFFICE_TYPES[extensionOf(fileName)] ?? 'application/zip' };
  }
  if (bytes.length > 0 && plainText(bytes)) return { kind: 'file', contentType: 'text/plain; charset=utf-8' };
  return null;
}

/**
 * A display name safe to show and to put in a header: the last path segment, no control characters
 * and no brackets (the message content is '[Image: name]'), at most 120 characters.
 */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f[\]]/g, '').trim();
  return Array.from(cleaned).slice(0, 120).join('') || 'attachment';
}
