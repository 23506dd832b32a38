// The browser boundary of the wallet frame: creating the iframe and hearing its messages. Everything
// else (readiness, ids, timeouts, origin checks) is in frameConnection.ts and runs against this interface,
// so tests can stand in a fake frame.

/** What the host can do with the frame's window: post to it, and (same-origin only) read its location. */
export interface FrameWindow {
  postMessage(message: unknown, targetOrigin: string): void;
  /** Readable only while the frame is same-origin (its first `about:blank`); throws after that. */
  readonly location?: { readonly href: string };
}

/** A message event as the host page receives it. */
export interface FrameMessage {
  data: unknown;
  origin: string;
  source: unknown;
}

/** How to mount one iframe. */
export interface FrameMountOptions {
  title: string;
  /** False mounts a hidden frame (display none, aria-hidden) on `document.body`. */
  visible: boolean;
  /** Where a visible frame goes. */
  container?: HTMLElement;
  /** Called when the iframe fires `error` (it failed to load). */
  onError(): void;
}

/** A mounted iframe. */
export interface MountedFrame {
  /** The frame's window; null until it exists. */
  readonly contentWindow: FrameWindow | null;
  remove(): void;
}

/** Creates iframes and listens to the page's messages. */
export interface FrameHost {
  mount(src: string, options: FrameMountOptions): MountedFrame;
  /** Listens to `message` events on the page; returns the unsubscribe. */
  listen(listener: (message: FrameMessage) => void): () => void;
}

/** The real browser: `document.createElement('iframe')` and `window.addEventListener('message')`. */
export const browserFrameHost: FrameHost = {
  mount(src, options) {
    const iframe = document.createElement("iframe");
    iframe.title = options.title;
    iframe.setAttribute("allow", "clipboard-write");
    if (options.visible) {
      iframe.style.width = "100%";
      iframe.style.height = "320px";
      iframe.style.border = "0";
    } else {
      iframe.setAttribute("aria-hidden", "true");
      iframe.tabIndex = -1;
      iframe.style.display = "none";
    }
    iframe.addEventListener("error", () => options.onError());
    iframe.src = src;
    (options.container ?? document.body).appendChild(iframe);
    return {
      get contentWindow() {
        return iframe.contentWindow;
      },
      remove: () => iframe.remove(),
    };
  },
  listen(listener) {
    const onMessage = (event: MessageEvent) =>
      listener({ data: event.data, origin: event.origin, source: event.source });
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  },
};
