import { ApiError } from "../errors/ApiError.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { SymbolonError } from "../errors/SymbolonError.ts";
import {
  REQUEST_MAX_RETRIES,
  REQUEST_TIMEOUT_MS,
  RETRY_BACKOFF_FACTOR,
  RETRY_BASE_DELAY_MS,
  RETRYABLE_STATUSES,
  type ServerErrorCode,
} from "../generated/protocol.ts";
import { parseRetryAfter } from "./parseRetryAfter.ts";

/** One HTTP call with the spec's timeout and retry rules (§9). */
export interface RequestOptions {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** Serialised as JSON when present. */
  body?: unknown;
  fetch: typeof fetch;
  /** Waits between retries. */
  sleep: (ms: number) => Promise<void>;
  /** Default: REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default: REQUEST_MAX_RETRIES. */
  retries?: number;
}

type Attempt = { ok: true; value: unknown } | { ok: false; error: SymbolonError; retryable: boolean };

/**
 * Sends the request, retrying network failures and RETRYABLE_STATUSES with a delay of
 * RETRY_BASE_DELAY_MS × RETRY_BACKOFF_FACTOR^n. 429 is never retried. Resolves with the parsed JSON body.
 */
export async function request<T>(options: RequestOptions): Promise<T> {
  const retries = options.retries ?? REQUEST_MAX_RETRIES;
  for (let attempt = 0; ; attempt++) {
    const result = await attemptOnce(options);
    if (result.ok) return result.value as T;
    if (!result.retryable || attempt >= retries) throw result.error;
    await options.sleep(RETRY_BASE_DELAY_MS * RETRY_BACKOFF_FACTOR ** attempt);
  }
}

async function attemptOnce(options: RequestOptions): Promise<Attempt> {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  let text: string;
  try {
    // Called unbound: window.fetch throws "Illegal invocation" when called as a method of another object.
    const send = options.fetch;
    response = await send(options.url, {
      method: options.method,
      headers: options.headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "include",
      signal: controller.signal,
    });
    text = await response.text();
  } catch (cause) {
    const message = controller.signal.aborted
      ? `The request to ${options.url} timed out after ${timeoutMs} ms.`
      : `The request to ${options.url} failed before the server answered.`;
    return { ok: false, error: new ClientError("network_error", message, { cause }), retryable: true };
  } finally {
    clearTimeout(timer);
  }
  const retryable = (RETRYABLE_STATUSES as readonly number[]).includes(response.status);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    const message = `The server answered HTTP ${response.status} with a body that is not JSON.`;
    return { ok: false, error: new ClientError("network_error", message, { cause }), retryable };
  }
  if (response.ok) return { ok: true, value: body };
  return { ok: false, error: toError(response, body), retryable };
}

function toError(response: Response, body: unknown): SymbolonError {
  const { error, code, data } = (body ?? {}) as { error?: unknown; code?: unknown; data?: unknown };
  if (typeof code !== "string" || code === "") {
    const message = `The server answered HTTP ${response.status} without an error code.`;
    return new ClientError("network_error", message, { cause: body });
  }
  const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"));
  // Codes outside SERVER_ERROR_CODES are kept as they are: the spec's list ends with "among others".
  return new ApiError(code as ServerErrorCode, typeof error === "string" ? error : code, response.status, {
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(data === undefined || data === null ? {} : { data }),
  });
}
