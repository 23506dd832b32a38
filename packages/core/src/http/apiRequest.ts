import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import {
  API_PREFIX,
  HEADER_ANALYTICS_ID,
  HEADER_APP_ID,
  HEADER_CLIENT,
  HEADER_CLIENT_ID,
  SDK_VERSION_TAG,
} from "../generated/protocol.ts";
import { tokenStore } from "../session/tokenStore.ts";
import { randomUuid } from "../utils/randomUuid.ts";
import { request } from "./request.ts";

/** Options of one API call. */
export interface ApiRequestOptions {
  body?: unknown;
  /** Bearer token to send; default: the stored access token, if any. `null` sends none. */
  token?: string | null;
  /** Default: REQUEST_MAX_RETRIES. */
  retries?: number;
  /** Extra headers (e.g. `farcaster-channel-token`). */
  headers?: Record<string, string>;
  /** Path prefix; default `/api/v1` (the Farcaster Mini App calls are under `/api/v2`). */
  prefix?: string;
}

const ANALYTICS_ID_KEY = "privy:caid";

/** Calls `{apiUrl}/api/v1{path}` with the spec's headers (wire notes) and retry rules. */
export function apiRequest<T>(
  client: Client,
  method: "GET" | "POST",
  path: string,
  options: ApiRequestOptions = {},
): Promise<T> {
  const { appId, clientId, apiUrl } = client.options;
  const headers: Record<string, string> = {
    ...options.headers,
    "content-type": "application/json",
    [HEADER_APP_ID]: appId,
    [HEADER_CLIENT]: SDK_VERSION_TAG,
    [HEADER_ANALYTICS_ID]: analyticsId(client),
  };
  if (clientId) headers[HEADER_CLIENT_ID] = clientId;
  const token = options.token === undefined ? tokenStore.read(client).token : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const own = internals(client);
  return request<T>({
    url: `${apiUrl.replace(/\/+$/, "")}${options.prefix ?? API_PREFIX}${path}`,
    method,
    headers,
    body: options.body,
    fetch: own.fetch(),
    sleep: own.sleep,
    ...(options.retries === undefined ? {} : { retries: options.retries }),
  });
}

/** The analytics id: a random UUID created once and kept in storage (also the wallet frame's `caid`). */
export function analyticsId(client: Client): string {
  const storage = internals(client).storage();
  let id = storage.getItem(ANALYTICS_ID_KEY);
  if (!id) {
    id = randomUuid();
    storage.setItem(ANALYTICS_ID_KEY, id);
  }
  return id;
}
