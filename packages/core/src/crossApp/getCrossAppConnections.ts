import type { Client } from "../client/createClient.ts";
import type { CrossAppConnection, CrossAppConnectionsResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";

const cache = new WeakMap<Client, Promise<CrossAppConnection[]>>();

/** `GET /apps/{appId}/cross-app/connections` (spec §7), fetched once per client. */
export function getCrossAppConnections(client: Client): Promise<CrossAppConnection[]> {
  let connections = cache.get(client);
  if (connections === undefined) {
    const path = `/apps/${encodeURIComponent(client.options.appId)}/cross-app/connections`;
    connections = apiRequest<CrossAppConnectionsResponse>(client, "GET", path).then((r) => r.connections);
    // A failure is not kept: the next call asks again.
    connections.catch(() => cache.delete(client));
    cache.set(client, connections);
  }
  return connections;
}
