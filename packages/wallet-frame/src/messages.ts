// The postMessage envelope (docs/wallet.md "Frame messages"): who may talk to the frame, what
// a request looks like, and how it is answered.
import { FrameError, toFrameError } from "./frameError.ts";

/** A request `{id, event: "privy:…", data}`. */
export interface FrameRequest {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** Handles one event's `data`; returns the answer data or throws (a FrameError becomes the answer). */
export type Handler = (data: Record<string, unknown>) => unknown;

/** The parts of a `MessageEvent` the frame reads. */
export interface IncomingMessage {
  origin: string;
  data: unknown;
  source: { postMessage(message: unknown, targetOrigin: string): void } | null;
}

export interface ListenerOptions {
  allowedOrigins: ReadonlySet<string>;
  /** The embedder check (`embedder.ts`): a message it does not admit is ignored like a foreign one. */
  gate?: { admit(sender: { origin: string; source: unknown }): boolean };
  handlers: Readonly<Record<string, Handler>>;
  /** Settles when the wasm is loaded; nothing is answered before. */
  ready: Promise<void>;
}

/** The request in `raw`, or null when it is not `{id: string, event: "privy:…", data: object}`. */
export function parseRequest(raw: unknown): FrameRequest | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { id, event, data } = raw as Record<string, unknown>;
  if (typeof id !== "string" || typeof event !== "string" || !event.startsWith("privy:")) return null;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  return { id, event, data: data as Record<string, unknown> };
}

/** A `message` listener: filters, waits for readiness, dispatches and answers the sender only. */
export function createMessageListener(options: ListenerOptions): (message: IncomingMessage) => void {
  return (message) => {
    if (!options.allowedOrigins.has(message.origin) || (options.gate && !options.gate.admit(message))) {
      console.debug("wallet frame: ignored a message from", message.origin);
      return;
    }
    const request = parseRequest(message.data);
    const source = message.source;
    if (!request || !source) {
      console.debug("wallet frame: ignored a malformed message");
      return;
    }
    const answer = (
      body: { data: unknown } | { error: { type: string; message: string; retryAfterSeconds?: number } },
    ) => source.postMessage({ id: request.id, event: request.event, ...body }, message.origin);
    options.ready.then(
      async () => {
        try {
          const handler = Object.hasOwn(options.handlers, request.event)
            ? options.handlers[request.event]
            : undefined;
          if (!handler) {
            throw new FrameError("embedded_wallet_request_error", `Unsupported event: ${request.event}`);
          }
          answer({ data: await handler(request.data) });
        } catch (caught) {
          const {
            type,
            message: text,
            retryAfterSeconds,
          } = toFrameError(caught, "embedded_wallet_request_error");
          answer({
            error: { type, message: text, ...(retryAfterSeconds === null ? {} : { retryAfterSeconds }) },
          });
        }
      },
      // Never ready: no answers; the host gives up after its timeout ('Wallet proxy not initialized.').
      () => undefined,
    );
  };
}
