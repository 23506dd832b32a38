import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseInitData, readMiniAppInitData } from "./miniAppInitData.ts";
import {
  openTelegramPopup,
  TELEGRAM_AUTH_ORIGIN,
  TELEGRAM_CANCELED_MESSAGE,
  TELEGRAM_POPUP_CLOSED_CHECK_MS,
} from "./openTelegramPopup.ts";

/** A window that records what it opens and lets the test post messages to it. */
function fakeWindow() {
  const popup = { closed: false, close: vi.fn(() => (popup.closed = true)) };
  let listener: ((event: MessageEvent) => void) | null = null;
  const opened: string[] = [];
  const win = {
    location: { origin: "http://localhost:5173" },
    screen: { width: 1200, height: 800 },
    open: vi.fn((url: string) => {
      opened.push(url);
      return popup;
    }),
    addEventListener: (_: string, fn: (event: MessageEvent) => void) => (listener = fn),
    removeEventListener: () => (listener = null),
  };
  const post = (data: unknown, origin = TELEGRAM_AUTH_ORIGIN, source: unknown = popup) =>
    listener?.({ data, origin, source } as unknown as MessageEvent);
  return { win: win as unknown as Window, popup, opened, post, listening: () => listener !== null };
}

const RESULT = {
  id: 42,
  first_name: "Ada",
  username: "ada",
  auth_date: 1_800_000_000,
  hash: "ab".repeat(32),
};

describe("openTelegramPopup", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("opens Telegram's widget for the bot and origin, and resolves with the posted auth_result", async () => {
    const { win, opened, post, popup, listening } = fakeWindow();
    const { result } = openTelegramPopup({ botId: "7000001", window: win });
    const url = new URL(opened[0] ?? "");
    expect(url.origin + url.pathname).toBe("https://oauth.telegram.org/auth");
    expect(url.searchParams.get("bot_id")).toBe("7000001");
    expect(url.searchParams.get("origin")).toBe("http://localhost:5173");
    expect(url.searchParams.get("request_access")).toBe("write");
    // Messages from another origin or another window are ignored.
    post(JSON.stringify({ event: "auth_result", result: { ...RESULT, id: 666 } }), "https://evil.example");
    post(JSON.stringify({ event: "auth_result", result: { ...RESULT, id: 667 } }), TELEGRAM_AUTH_ORIGIN, {});
    // Telegram's widget posts JSON text.
    post(JSON.stringify({ event: "auth_result", result: RESULT }));
    await expect(result).resolves.toEqual(RESULT);
    expect(popup.close).toHaveBeenCalled();
    expect(listening()).toBe(false);
  });

  it("fails with the spec's message when the popup closes without a result", async () => {
    const { win, popup } = fakeWindow();
    const { result } = openTelegramPopup({ botId: "1", window: win });
    const outcome = expect(result).rejects.toThrow(TELEGRAM_CANCELED_MESSAGE);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(TELEGRAM_POPUP_CLOSED_CHECK_MS);
    await outcome;
  });

  it("fails when the widget answers without a signed user (auth_result false)", async () => {
    const { win, post } = fakeWindow();
    const { result } = openTelegramPopup({ botId: "1", window: win });
    post({ event: "auth_result", result: false });
    await expect(result).rejects.toThrow(TELEGRAM_CANCELED_MESSAGE);
  });

  it("fails when the browser blocks the popup", async () => {
    const { win } = fakeWindow();
    (win as unknown as { open: () => null }).open = () => null;
    await expect(openTelegramPopup({ botId: "1", window: win }).result).rejects.toThrow(
      TELEGRAM_CANCELED_MESSAGE,
    );
  });
});

describe("Mini App initData", () => {
  it("is read from window.Telegram.WebApp and split into its signed fields", () => {
    const raw = `query_id=AAE&user=${encodeURIComponent('{"id":7,"first_name":"Grace"}')}&auth_date=1800000000&hash=abc`;
    expect(readMiniAppInitData({ Telegram: { WebApp: { initData: raw } } })).toBe(raw);
    expect(readMiniAppInitData({ Telegram: { WebApp: { initData: "" } } })).toBeNull();
    expect(readMiniAppInitData({})).toBeNull();
    expect(parseInitData(raw)).toEqual({
      query_id: "AAE",
      user: '{"id":7,"first_name":"Grace"}',
      auth_date: "1800000000",
      hash: "abc",
    });
  });
});
