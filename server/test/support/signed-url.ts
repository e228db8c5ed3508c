/**
 * `url` with the first hex digit of its `sig` changed to another digit: a signature that is wrong by one
 * digit. (Overwriting the first digits with zeros left a signature that began with them unchanged: a test
 * that failed 1 run in 256.)
 */
export function alteredSignature(url: string): string {
  const altered = url.replace(/sig=([0-9a-f])/, (_, digit: string) => `sig=${digit === '0' ? '1' : '0'}`);
  if (altered === url) throw new Error(`no hex signature in ${url}`);
  return altered;
}
