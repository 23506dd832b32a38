// @vitest-environment jsdom
import { createClient, createMemoryStorage } from "@symbolon/core";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import CrossAppStatusScreen from "./CrossAppStatusScreen";

const PROVIDER_ID = "clproviderapp000000000001";

function client() {
  const connections = [
    {
      provider_app_id: PROVIDER_ID,
      provider_app_name: "Orbit",
      provider_app_icon_url: null,
      provider_app_custom_api_url: null,
      read_only: false,
      provider_app_custom_auth_authorize_url: null,
      provider_app_custom_auth_transact_url: null,
    },
  ];
  const fetch = vi.fn(async () => new Response(JSON.stringify({ connections }), { status: 200 }));
  return createClient({
    appId: "cltestapp0000000000000001",
    apiUrl: "http://api.test",
    storage: createMemoryStorage(),
    broadcast: false,
    fetch,
  });
}

afterEach(() => vi.useRealTimers());

describe("CrossAppStatusScreen", () => {
  it("names the provider app while connecting, then on success", async () => {
    const c = client();
    const { rerender } = render(
      <CrossAppStatusScreen
        client={c}
        provider={`privy:${PROVIDER_ID}`}
        status="loading"
        onRetry={() => {}}
      />,
    );
    expect(await screen.findByRole("heading", { name: "Connecting to Orbit" })).toBeTruthy();
    rerender(
      <CrossAppStatusScreen client={c} provider={`privy:${PROVIDER_ID}`} status="done" onRetry={() => {}} />,
    );
    expect(screen.getByRole("heading", { name: "Connected to Orbit" })).toBeTruthy();
  });

  it("a failure says so in the spec's words and offers Retry", async () => {
    const onRetry = vi.fn();
    render(
      <CrossAppStatusScreen
        client={client()}
        provider={`privy:${PROVIDER_ID}`}
        status="error"
        onRetry={onRetry}
      />,
    );
    expect(
      await screen.findByText("There was an issue connecting your Orbit account. Please try again."),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it("after 2 minutes without an answer it times out", async () => {
    vi.useFakeTimers();
    render(
      <CrossAppStatusScreen
        client={client()}
        provider={`privy:${PROVIDER_ID}`}
        status="loading"
        onRetry={() => {}}
      />,
    );
    expect(screen.queryByRole("alert")).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(120_000);
    });
    expect(screen.getByRole("alert").textContent).toBe("Authorization request timed out after 2 minutes.");
  });
});
