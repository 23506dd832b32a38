import type { Client } from "@symbolon/core";
import { render, waitFor } from "@testing-library/react";
import { StrictMode } from "react";
import { describe, expect, it, vi } from "vitest";
import FarcasterScreen from "./FarcasterScreen";
import type { FarcasterActions } from "./flows/createFarcasterFlow";

vi.mock("@symbolon/core", async (original) => ({
  ...(await original<typeof import("@symbolon/core")>()),
  loginWithFarcaster: vi.fn(),
  linkFarcaster: vi.fn(),
}));
const { loginWithFarcaster } = await import("@symbolon/core");

describe("Farcaster screen", () => {
  it("opens one relay channel per screen, even under StrictMode's double effects; closing stops it", async () => {
    const signals: AbortSignal[] = [];
    vi.mocked(loginWithFarcaster).mockImplementation((_client, options) => {
      if (options?.signal) signals.push(options.signal);
      return new Promise(() => {});
    });
    const actions: FarcasterActions = { succeed: vi.fn(), accountSaved: vi.fn(), refuse: vi.fn(() => false) };
    const screen = render(
      <StrictMode>
        <FarcasterScreen client={{} as Client} actions={actions} flow="login" titleId="t" />
      </StrictMode>,
    );
    await waitFor(() => expect(loginWithFarcaster).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loginWithFarcaster).toHaveBeenCalledTimes(1);
    expect(signals[0]?.aborted).toBe(false);
    screen.unmount();
    expect(signals[0]?.aborted).toBe(true);
  });
});
