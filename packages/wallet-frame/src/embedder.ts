// Who embeds the frame (docs/wallet.md "Who may use the frame"). CSP `frame-ancestors` keeps other
// origins from embedding it in browsers that enforce it; this is the frame's own check, so nothing
// rests on CSP alone. The frame reads no storage and answers nothing until it knows its embedder
// is one of the app's allowed origins, and then keys every storage entry by that origin.
import { FrameError } from "./frameError.ts";

/** What the page can see of where it runs. */
export interface EmbeddingContext {
  /** `window.parent`, or null when the frame is a top-level window (opened with `window.open`). */
  parent: unknown;
  /** `location.ancestorOrigins` (Chromium, WebKit): the parent's origin first; null where absent. */
  ancestorOrigins: ArrayLike<string> | null;
  /** `document.referrer` (empty when the embedder's referrer policy sends none). */
  referrer: string;
}

/** The browser's view of the current page, for `EmbeddingContext`. */
export function embeddingContextOf(win: Window): EmbeddingContext {
  return {
    parent: win.parent === win ? null : win.parent,
    ancestorOrigins: win.location.ancestorOrigins ?? null,
    referrer: win.document.referrer,
  };
}

/** The parts of a message the gate reads. */
export interface Sender {
  origin: string;
  source: unknown;
}

export interface EmbedderGate {
  /** Set when the embedder is known and not allowed: the frame then never operates. */
  readonly refusedOrigin: string | null;
  /**
   * Whether a message may be handled: its origin is allowed, it comes from the embedder (the parent
   * window when framed), and it is of the embedder's origin. The first admitted message fixes the
   * embedder's origin when the page could not see it.
   */
  admit(sender: Sender): boolean;
  /** The verified embedder's origin; throws `storage_error` before one is known (storage stays shut). */
  origin(): string;
}

function originOf(url: string): string | null {
  if (url === "") return null;
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The gate for a frame in `context` that `allowed` origins may use. The embedder's origin comes from
 * `ancestorOrigins[0]` when the browser shows it, else from the referrer; a frame that sees neither
 * (a top-level window, or an embedder sending no referrer) takes it from the first allowed message
 * of its parent (the browser sets `event.origin`, a page cannot forge it).
 */
export function createEmbedderGate(context: EmbeddingContext, allowed: ReadonlySet<string>): EmbedderGate {
  const framed = context.parent !== null;
  // "null": an opaque parent, or one whose referrer policy masks it; then the referrer, then the
  // first message decides (an opaque origin's messages never pass: "null" is never allowed).
  const ancestor = framed ? context.ancestorOrigins?.[0] : undefined;
  const seen = ancestor !== undefined && ancestor !== "null" ? ancestor : originOf(context.referrer);
  const refusedOrigin = seen !== null && !allowed.has(seen) ? seen : null;
  let embedder = refusedOrigin === null ? seen : null;

  return {
    refusedOrigin,
    admit({ origin, source }) {
      if (refusedOrigin !== null || !allowed.has(origin)) return false;
      // Framed: only the embedding page speaks for the embedder (not another frame or window of an
      // allowed origin that got hold of this one).
      if (framed && source !== context.parent) return false;
      if (embedder === null) embedder = origin;
      return origin === embedder;
    },
    origin() {
      if (refusedOrigin !== null || embedder === null) {
        throw new FrameError("storage_error", "Unable to access storage");
      }
      return embedder;
    },
  };
}

/** The prefix of every storage entry the frame keeps for `appId` embedded by `origin`. */
export function storageScope(appId: string | null, origin: string): string {
  return `symbolon[${appId ?? ""} ${origin}]:`;
}
