// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../client/createClient.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID } from "../test/fixtures.ts";
import { browserFrameHost } from "./FrameHost.ts";
import { walletFrame } from "./frameBridge.ts";

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the browser's wallet frame", () => {
  it("is one hidden iframe, mounted on first use with caid and client_id, removed on destroy", () => {
    const client = createClient({
      appId: APP_ID,
      clientId: "client-1",
      apiUrl: "http://localhost:8787/",
      storage: createMemoryStorage(),
      broadcast: false,
    });
    expect(document.querySelectorAll("iframe")).toHaveLength(0);
    const frame = walletFrame(client);
    expect(walletFrame(client)).toBe(frame);
    frame.ready().catch(() => {});
    const iframes = document.querySelectorAll("iframe");
    expect(iframes).toHaveLength(1);
    const iframe = iframes[0] as HTMLIFrameElement;
    const src = new URL(iframe.src);
    expect(`${src.origin}${src.pathname}`).toBe(`http://localhost:8787/apps/${APP_ID}/embedded-wallets`);
    expect(src.searchParams.get("client_id")).toBe("client-1");
    expect(src.searchParams.get("caid")).toMatch(/^[0-9a-f-]{36}$/);
    expect(iframe.title).toBe("Symbolon wallet");
    expect(iframe.getAttribute("aria-hidden")).toBe("true");
    expect(iframe.getAttribute("allow")).toBe("clipboard-write");
    expect(iframe.style.display).toBe("none");
    client.destroy();
    expect(document.querySelectorAll("iframe")).toHaveLength(0);
  });

  it("mounts a visible frame in the given container", () => {
    const container = document.createElement("div");
    document.body.append(container);
    const mounted = browserFrameHost.mount("https://wallet.example/x?mode=export", {
      title: "Export wallet",
      visible: true,
      container,
      onError() {},
    });
    const iframe = container.querySelector("iframe") as HTMLIFrameElement;
    expect(iframe.title).toBe("Export wallet");
    expect(iframe.style.width).toBe("100%");
    expect(iframe.style.height).toBe("320px");
    expect(iframe.hasAttribute("aria-hidden")).toBe(false);
    mounted.remove();
    expect(container.querySelector("iframe")).toBeNull();
  });

  it("uses walletFrameUrl when given", () => {
    const client = createClient({
      appId: APP_ID,
      apiUrl: "http://localhost:8787",
      walletFrameUrl: "https://wallet.example/frame",
      storage: createMemoryStorage(),
      broadcast: false,
    });
    walletFrame(client)
      .ready()
      .catch(() => {});
    const src = new URL((document.querySelector("iframe") as HTMLIFrameElement).src);
    expect(`${src.origin}${src.pathname}`).toBe("https://wallet.example/frame");
    expect(src.searchParams.has("client_id")).toBe(false);
    client.destroy();
  });
});
