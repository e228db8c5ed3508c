const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64: Buffer.from skips characters it does not know, which would turn garbage into bytes. */
export function fromBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** Characters of the base64 of `bytes` bytes. */
export const base64Chars = (bytes: number) => Math.ceil(bytes / 3) * 4;
