/** The text-recognition service of the upload page (issue 11): `POST /api/ocr/upload`. */
export { ocrRoutes, OCR_RATE, OCR_UPLOAD_PATH } from './routes';
