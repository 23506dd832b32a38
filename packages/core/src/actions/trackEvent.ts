import type { Client } from "../client/createClient.ts";
import type { AnalyticsEventRequest } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";

/** `POST /analytics_events`, fire-and-forget: never retried, never throws, never awaited by callers. */
export function trackEvent(
  client: Client,
  eventName: string,
  payload: Record<string, unknown> | null = null,
): void {
  const body: AnalyticsEventRequest = {
    event_name: eventName,
    client_id: client.options.clientId ?? null,
    payload,
  };
  apiRequest(client, "POST", "/analytics_events", { body, retries: 0 }).catch(() => {
    // Spec §8: analytics failures are ignored.
  });
}
