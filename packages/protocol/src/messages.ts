/** User-facing texts of the specification (sections 5 and 8), word for word. */
export const MSG = {
  loginRequired: 'Email and password are required.',
  signupRequired: 'All fields (Name, Email, Password) are required.',
  invalidEmail: 'Please enter a valid email address.',
  passwordTooShort: 'Password must be at least 6 characters long.',
  invalidOtp: 'Please enter a valid 6-digit OTP.',
  newPasswordTooShort: 'New password must be at least 6 characters long.',
  newPasswordsMismatch: 'New passwords do not match.',
  documentRejected: 'Your document was rejected. Please upload again.',

  loginFailed: 'Login failed. Please check your credentials.',
  networkError: 'A network error occurred. Please try again.',
  otpSendFailed: 'Failed to send OTP. Please try again.',
  otpVerifyFailed: 'OTP verification failed. Please try again.',
  otpVerifyNetwork: 'A network error occurred during OTP verification.',
  resetRequestFailed: 'Failed to request OTP.',
  resetFailed: 'Failed to reset password.',
  networkErrorShort: 'A network error occurred.',
} as const;

/** Server answers that the spec leaves to us; kept here so UI and tests share them. */
export const SERVER_MSG = {
  invalidCredentials: 'Invalid email or password.',
  otpSent: 'A 6-digit code has been sent to your email.',
  otpWrong: 'The code is incorrect.',
  otpExpired: 'This code has expired. Please request a new one.',
  otpMissing: 'No code was requested for this email, or it has already been used. Please request a new one.',
  otpLocked: 'Too many incorrect attempts. Please request a new code.',
  resetRequested: 'If an account exists for this email, a 6-digit code has been sent to it.',
  passwordReset: 'Your password has been reset. You can now log in.',
  loggedOut: 'Logged out.',
  unauthorized: 'Not authenticated',
  forbidden: 'Forbidden',
  notFound: 'Not found',
  tooManyRequests: 'Too many attempts. Please try again later.',
  internal: 'Something went wrong. Please try again.',
  bodyTooLarge: 'Request body is too large.',
  invalidJson: 'Request body must be valid JSON.',
  /** This node is draining (a deploy or restart): the client tries again, reaching another node. */
  restarting: 'The server is restarting. Please try again.',
} as const;

/** Cooldown answer, with the seconds left. */
export function resendWaitMessage(secondsLeft: number): string {
  return `Please wait ${secondsLeft} seconds before requesting a new code.`;
}
