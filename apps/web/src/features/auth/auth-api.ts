import {
  authResponse,
  messageResponse,
  rejectedLoginResponse,
  splitName,
  userSchema,
  type AuthResponse,
  type User,
} from '@campus/protocol';
import { isApiError, type ApiClient, type RequestOptions } from '../../lib/api';

/** A 403 login still carries a session: the student must upload their document again. */
export type LoginResult =
  { kind: 'ok'; auth: AuthResponse } | { kind: 'document-rejected'; auth: AuthResponse; message: string };

export async function login(api: ApiClient, email: string, password: string): Promise<LoginResult> {
  try {
    const auth = await api.post('/api/auth/login', { email: email.trim(), password }, authResponse);
    return { kind: 'ok', auth };
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 403) {
      const rejected = rejectedLoginResponse.safeParse(error.body);
      if (rejected.success) {
        const { error: message, ...auth } = rejected.data;
        return { kind: 'document-rejected', auth, message };
      }
    }
    throw error;
  }
}

export interface SignupInput {
  fullName: string;
  email: string;
  password: string;
}

/** Sends the one-time code; the account exists only once the code is verified. */
export async function signup(api: ApiClient, input: SignupInput): Promise<string> {
  const { firstName, lastName } = splitName(input.fullName);
  const body = { firstName, lastName, email: input.email.trim(), password: input.password, phoneNumber: '' };
  return (await api.post('/api/auth/signup', body, messageResponse)).message;
}

export function verifyOtp(api: ApiClient, email: string, otpCode: string): Promise<AuthResponse> {
  return api.post('/api/auth/verify-otp', { email: email.trim(), otpCode: otpCode.trim() }, authResponse);
}

export async function requestPasswordReset(api: ApiClient, email: string): Promise<string> {
  return (await api.post('/api/auth/request-password-reset', { email: email.trim() }, messageResponse))
    .message;
}

export async function resetPassword(
  api: ApiClient,
  input: { email: string; otpCode: string; newPassword: string },
): Promise<string> {
  const body = { email: input.email.trim(), otpCode: input.otpCode.trim(), newPassword: input.newPassword };
  return (await api.post('/api/auth/reset-password', body, messageResponse)).message;
}

export function fetchCurrentUser(api: ApiClient, options?: RequestOptions): Promise<User> {
  return api.get('/api/auth/me', userSchema, options);
}

export async function logoutOnServer(api: ApiClient, options?: RequestOptions): Promise<void> {
  await api.post('/api/auth/logout', {}, messageResponse, options);
}
