import { errorText } from '@campus/protocol';

/** Anything with zod's `parse`: the protocol's response schemas. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

/**
 * Why a call failed. `network`: the server was never reached (offline, DNS, refused), status 0.
 * `http`: the server answered with an error status. `invalid-response`: it answered 2xx with a body that does
 * not match the protocol.
 */
export type ApiErrorKind = 'network' | 'http' | 'invalid-response';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    /** The server's `error` (or first `errors[].msg`), when it sent one. */
    readonly serverMessage: string | undefined,
    readonly body: unknown,
  ) {
    super(serverMessage ?? (kind === 'network' ? 'Network error' : `Request failed (${status})`));
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface ApiClient {
  get<T>(path: string, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  /** A multipart POST (the browser sets the boundary's Content-Type). */
  postForm<T>(path: string, form: FormData, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
}

export interface ApiClientConfig {
  /** platform.serverUrl: '' for the page's own origin. */
  baseUrl: string;
  /** Read at every call, so a sign-in or logout takes effect at once. */
  getToken: () => string | null;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createApiClient({ baseUrl, getToken }: ApiClientConfig): ApiClient {
  async function request<T>(
    method: string,
    path: string,
    body: unknown,
    schema: ResponseSchema<T>,
    options: RequestOptions = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;

    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiError('network', 0, undefined, undefined);
    }

    const data = await readJson(response);
    if (!response.ok) throw new ApiError('http', response.status, errorText(data), data);
    try {
      return schema.parse(data);
    } catch {
      throw new ApiError('invalid-response', response.status, undefined, data);
    }
  }

  return {
    get: (path, schema, options) => request('GET', path, undefined, schema, options),
    post: (path, body, schema, options) => request('POST', path, body ?? {}, schema, options),
    patch: (path, body, schema, options) => request('PATCH', path, body ?? {}, schema, options),
    put: (path, body, schema, options) => request('PUT', path, body ?? {}, schema, options),
    delete: (path, schema, options) => request('DELETE', path, undefined, schema, options),
    postForm: (path, form, schema, options) => request('POST', path, form, schema, options),
  };
}

/**
 * The text the spec shows for a failed call: the server's own message when it sent one, the fallback for
 * other failures, and the network text when the server could not be reached.
 */
export function failureText(error: unknown, fallback: string, networkText: string): string {
  if (!isApiError(error)) return fallback;
  if (error.kind === 'network') return networkText;
  return error.serverMessage ?? fallback;
}
