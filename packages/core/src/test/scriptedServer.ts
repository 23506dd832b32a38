import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the scripted server received. */
export interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

/** What a route handler answers: a status, a JSON body (or raw text), extra headers. */
export interface Reply {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Never answer (to exercise timeouts). */
  hang?: boolean;
  /** Destroy the socket without answering (a network failure). */
  drop?: boolean;
  delayMs?: number;
}

export type Handler = (hit: Hit, index: number) => Reply | Promise<Reply>;

/** A real HTTP server on 127.0.0.1 whose routes each test scripts; it records every hit. */
export interface ScriptedServer {
  url: string;
  hits: Hit[];
  /** Sets the handler of `"METHOD /path"` (path without query). */
  on(route: string, handler: Handler): void;
  hitsOf(route: string): Hit[];
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const routes = new Map<string, Handler>();
  const hits: Hit[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of req) chunks.push(chunk as Uint8Array);
    const raw = new TextDecoder().decode(concat(chunks));
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const hit: Hit = {
      method: req.method ?? "GET",
      path,
      headers: req.headers,
      body: raw === "" ? undefined : JSON.parse(raw),
      at: Date.now(),
    };
    hits.push(hit);
    const route = `${hit.method} ${path}`;
    const handler = routes.get(route);
    const index = hits.filter((h) => `${h.method} ${h.path}` === route).length - 1;
    const reply: Reply = handler
      ? await handler(hit, index)
      : { status: 404, json: { error: `no route ${route}`, code: "not_found" } };
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.hang) {
      hanging.add(res);
      return;
    }
    if (reply.drop) {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(reply.text ?? JSON.stringify(reply.json ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    on: (route, handler) => routes.set(route, handler),
    hitsOf: (route) => hits.filter((h) => `${h.method} ${h.path}` === route),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}
