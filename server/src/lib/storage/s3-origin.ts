import type { S3StorageConfig } from '../../config';

/**
 * The origin presigned URLs point at (for the CSP): the endpoint (path-style) or `<bucket>.<endpoint host>`,
 * AWS's regional endpoint without S3_ENDPOINT. A bucket name with dots is always addressed path-style by
 * the SDK (a dotted host name would not match the certificate).
 */
export function s3DownloadOrigin(config: S3StorageConfig): string {
  const base = new URL(config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
  if (config.forcePathStyle || config.bucket.includes('.')) return base.origin;
  return `${base.protocol}//${config.bucket}.${base.host}`;
}
