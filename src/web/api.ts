/* The judge's API from the browser: the token kept in localStorage, JSON in and out. */

const KEY = "entente.token";
const NAME = "entente.user";

export const session = {
  get token(): string | null {
    return localStorage.getItem(KEY);
  },
  get user(): string | null {
    return localStorage.getItem(NAME);
  },
  set(token: string, user: string): void {
    localStorage.setItem(KEY, token);
    localStorage.setItem(NAME, user);
  },
  clear(): void {
    localStorage.removeItem(KEY);
    localStorage.removeItem(NAME);
  },
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  const token = session.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!res.ok) {
    if (res.status === 401 && token) session.clear();
    const msg = (data as { error?: string } | null)?.error ?? `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, msg);
  }
  return data as T;
}

export const get = <T>(path: string) => api<T>("GET", path);
export const post = <T>(path: string, body?: unknown) => api<T>("POST", path, body ?? {});

/**
 * The game's server-sent events from now on: the backlog's last id is read first and skipped
 * (none read: from the beginning). `read` runs once the backlog is read, before the stream
 * opens.
 */
export async function gameEvents(id: string, read?: () => void): Promise<EventSource> {
  let after = 0;
  try {
    const evs = await get<{ id: number }[]>(`/api/games/${encodeURIComponent(id)}/events`);
    after = evs.reduce((m, e) => Math.max(m, e.id), 0);
  } catch {
    // no backlog: start from the beginning
  }
  read?.();
  const token = session.token ? `&token=${encodeURIComponent(session.token)}` : "";
  return new EventSource(`/api/games/${encodeURIComponent(id)}/events?after=${after}${token}`);
}
