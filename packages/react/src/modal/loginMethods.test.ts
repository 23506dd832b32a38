import type { AppConfigResponse } from "@symbolon/core";
import { describe, expect, it } from "vitest";
import { loginMethods } from "./loginMethods";

const config = (primary: string[], overflow: string[]) =>
  ({ login_methods_and_order: { primary, overflow } }) as unknown as AppConfigResponse;

describe("loginMethods", () => {
  it("is email only without a config or a list", () => {
    expect(loginMethods(null)).toEqual({ primary: ["email"], overflow: [] });
    expect(loginMethods(config([], []))).toEqual({ primary: ["email"], overflow: [] });
  });

  it("keeps the app's order, skips unknown names, guest and custom auth, and lists each method once", () => {
    expect(loginMethods(config(["guest", "sms", "google", "email"], ["email", "custom_auth"]))).toEqual({
      primary: ["sms", "email"],
      overflow: [],
    });
    expect(loginMethods(config(["email"], ["smart_wallet", "sms"]))).toEqual({
      primary: ["email"],
      overflow: ["sms"],
    });
  });

  it("lists Telegram only when the app has a bot, and Farcaster", () => {
    expect(loginMethods(config(["telegram", "email"], ["farcaster"]))).toEqual({
      primary: ["email"],
      overflow: ["farcaster"],
    });
    const withBot = {
      ...config(["telegram", "email"], []),
      telegram_auth_config: { bot_id: "1", bot_name: "bot", seamless_auth_enabled: false },
    } as AppConfigResponse;
    expect(loginMethods(withBot)).toEqual({ primary: ["telegram", "email"], overflow: [] });
  });

  it("falls back to email when nothing in the list has a screen here", () => {
    expect(loginMethods(config(["smart_wallet"], ["moonpay"]))).toEqual({ primary: ["email"], overflow: [] });
  });

  it("lists the passkey method (a button, never inline)", () => {
    expect(loginMethods(config(["passkey", "email"], []))).toEqual({
      primary: ["passkey", "email"],
      overflow: [],
    });
  });

  it("lists external wallets (`wallet`) where the app puts them", () => {
    expect(loginMethods(config(["wallet", "email"], []))).toEqual({
      primary: ["wallet", "email"],
      overflow: [],
    });
    expect(loginMethods(config(["email"], ["wallet"]))).toEqual({ primary: ["email"], overflow: ["wallet"] });
  });

  it("lists OAuth providers the app config turns on, and the operator's custom providers", () => {
    const on = {
      ...config(["google", "email", "apple"], ["github", "custom:acme", "custom:gone"]),
      google_oauth: true,
      github_oauth: true,
      apple_oauth: false,
      custom_oauth_providers: [
        { provider: "custom:acme", provider_display_name: "Acme", provider_icon_url: null },
      ],
    } as unknown as AppConfigResponse;
    expect(loginMethods(on)).toEqual({ primary: ["google", "email"], overflow: ["github", "custom:acme"] });
  });
});
