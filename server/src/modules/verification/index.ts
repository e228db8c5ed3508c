/**
 * The verification module's public surface (issue 11): the student-ID upload (sign → PUT → submit), the
 * admin review, and the academic e-mail of a sign-up.
 */
export {
  verificationRoutes,
  DOCUMENT_PUT_PATH,
  DOCUMENT_SIGN_RATE,
  DOCUMENT_PUT_RATE,
  DOCUMENT_SUBMIT_RATE,
} from './routes';
export { DOCUMENT_DECISION_RATE } from './admin-routes';
export { DECISION_NOTICES } from './decisions';
export { academicDomainOf, emailDomain } from './academic';
