import { ApiError } from './api-error.ts';
import { clearAdminSession, clearTenantSession, readStoredTenantSlug, storageKeys } from './auth-storage.ts';

/** Texts of spec 01 §8 "General handling of answers". */
export const SESSION_EXPIRED_MESSAGE = 'Session expired. Please log in again.';
export const SERVER_ERROR_MESSAGE = 'Server error';
export const UNKNOWN_ERROR_MESSAGE = 'An unknown server error occurred.';

/** Paths served outside any tenant: never prefixed with /t/{slug}. */
const UNSCOPED_PREFIXES = ['/api/auth', '/api/tenants', '/api/admin'];

export type SessionScope = 'tenant' | 'admin';

export interface ApiRequestOptions {
  method?: string;
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

type Navigate = (to: string) => void;

let navigate: Navigate = (to) => window.location.assign(to);
const sessionExpiredListeners = new Set<(scope: SessionScope) => void>();
const passwordChangeRequiredListeners = new Set<() => void>();

/** Lets the app route in-page (the data router) instead of reloading on a 401. */
export function configureApiClient(options: { navigate: Navigate }) {
  navigate = options.navigate;
}

/** Called after a 401 cleared the stored session, before the redirect. */
export function onSessionExpired(listener: (scope: SessionScope) => void): () => void {
  sessionExpiredListeners.add(listener);
  return () => sessionExpiredListeners.delete(listener);
}

/** Called when the server refuses a call until the user replaces a temporary password. */
export function onPasswordChangeRequired(listener: () => void): () => void {
  passwordChangeRequiredListeners.add(listener);
  return () => passwordChangeRequiredListeners.delete(listener);
}

function pathOf(pathOrUrl: string) {
  return pathOrUrl.split(/[?#]/, 1)[0] ?? pathOrUrl;
}

function isUnder(path: string, prefix: string) {
  const bare = pathOf(path);
  return bare === prefix || bare.startsWith(`${prefix}/`);
}

/** Admin token when the call is under /api/admin or the page is under /admin (spec 01 §6). */
export function sessionScopeFor(path: string, pagePath = window.location.pathname): SessionScope {
  return isUnder(path, '/api/admin') || isUnder(pagePath, '/admin') ? 'admin' : 'tenant';
}

/** Tenant-scoped API paths go under /t/{slug} unless already there or served outside tenants. */
export function resolveApiPath(path: string, tenantSlug: string | null): string {
  if (/^\/t\/[^/]+\//.test(path)) return path;
  if (!isUnder(path, '/api') || UNSCOPED_PREFIXES.some((prefix) => isUnder(path, prefix))) return path;
  return tenantSlug ? `/t/${encodeURIComponent(tenantSlug)}${path}` : path;
}

/** The sign-in calls answer 401 for wrong credentials: that is a form error, not an expired session. */
function isCredentialCall(path: string) {
  return /^\/api\/(admin\/)?auth\/(login|register)$/.test(pathOf(path));
}

function currentTenantSlug() {
  return readStoredTenantSlug() ?? window.location.pathname.match(/^\/t\/([^/]+)/)?.[1] ?? null;
}

function expireSession(scope: SessionScope): never {
  if (scope === 'admin') clearAdminSession();
  else clearTenantSession();
  for (const listener of sessionExpiredListeners) listener(scope);
  navigate(scope === 'admin' ? '/admin/login' : '/login');
  throw new ApiError(401, SESSION_EXPIRED_MESSAGE, { code: 'UNAUTHORIZED' });
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError(response.status, response.statusText || UNKNOWN_ERROR_MESSAGE);
  }
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const serverMessage = typeof record.message === 'string' && record.message ? record.message : undefined;
  const code = typeof record.code === 'string' ? record.code : undefined;
  return new ApiError(response.status, serverMessage ?? SERVER_ERROR_MESSAGE, { code, serverMessage });
}

/** The URL and init of a call: the right bearer token, path and body. */
function outgoingRequest(path: string, options: ApiRequestOptions) {
  const scope = sessionScopeFor(path);
  const token = localStorage.getItem(scope === 'admin' ? storageKeys.adminToken : storageKeys.token);
  const url = resolveApiPath(path, scope === 'admin' ? null : currentTenantSlug());

  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const method = options.method ?? 'GET';
  return { scope, url, token, init: { method, headers, body, signal: options.signal } };
}

/** As long as the query cache counts an answer as fresh: an early answer older than that is not used. */
const EARLY_ANSWER_MS = 10_000;

interface EarlyAnswer {
  token: string | null;
  startedAt: number;
  response: Promise<Response>;
}

/**
 * Kept on the page, not in this module: board.html starts the board's read from an inline script holding its own copy
 * of this module (build/page-preloads-plugin.ts), and the app's copy takes the answer from the same map.
 */
const earlyAnswers: Map<string, EarlyAnswer> = ((globalThis as { embudoEarlyAnswers?: Map<string, EarlyAnswer> }).embudoEarlyAnswers ??= new Map());

/**
 * Starts a GET that a page is about to make, before that page's code has even loaded. The page's own call to the
 * same URL with the same session takes the answer, once, and handles it as its own (a 401 or an error included);
 * an answer nobody takes within EARLY_ANSWER_MS is dropped. Resolves to the answer, for whoever must read it early.
 */
export function requestEarly(path: string): Promise<Response> {
  const { url, token, init } = outgoingRequest(path, {});
  const response = fetch(url, { ...init, priority: 'high' });
  // Nobody may take it: its failure is then nobody's to report.
  response.catch(() => undefined);
  earlyAnswers.set(url, { token, startedAt: Date.now(), response });
  return response;
}

const isUsable = (early: EarlyAnswer, token: string | null) => early.token === token && Date.now() - early.startedAt < EARLY_ANSWER_MS;

/** The answer requestEarly started for `path` that a call with the current session would take, without taking it. */
export function earlyAnswer(path: string): Promise<Response> | undefined {
  const { url, token } = outgoingRequest(path, {});
  const early = earlyAnswers.get(url);
  return early && isUsable(early, token) ? early.response : undefined;
}

function takeEarlyAnswer(url: string, token: string | null, init: RequestInit): Promise<Response> | undefined {
  const early = earlyAnswers.get(url);
  if (!early || init.method !== 'GET' || init.signal) return undefined;
  earlyAnswers.delete(url);
  return isUsable(early, token) ? early.response : undefined;
}

/**
 * Calls the Embudo API with the right bearer token and path, and turns failures into ApiError.
 * Answers without content (204, 304, empty body) resolve to undefined.
 */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { scope, url, token, init } = outgoingRequest(path, options);

  let response: Response;
  try {
    response = await (takeEarlyAnswer(url, token, init) ?? fetch(url, init));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, UNKNOWN_ERROR_MESSAGE);
  }

  if (response.status === 401 && !isCredentialCall(path)) expireSession(scope);
  if (response.status === 304 || response.status === 204) return undefined as T;
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (error.code === 'PASSWORD_CHANGE_REQUIRED') for (const listener of passwordChangeRequiredListeners) listener();
    throw error;
  }

  const text = await response.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return text as T;
  }
}

export const api = {
  get: <T = unknown>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
