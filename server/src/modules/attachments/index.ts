/** The attachments module's public surface. */
export { attachmentRoutes, UPLOAD_RATE, SIGN_RATE } from './routes';
export { fileRoutes, attachmentDisposition } from './file-routes';
export { UPLOAD_PATH } from './upload';
