import { act, renderHook, waitFor } from "@testing-library/react";
import { numberToHex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { localChainForFile } from "../test/localChain";
import { BALANCE_REFRESH_MS, useBalance } from "./useBalance";
import { waitForReceipt } from "./waitForReceipt";

const chain = localChainForFile();

async function fund(address: string, stt: string) {
  const hash = await chain.request("eth_sendTransaction", [
    { from: chain.funder.address, to: address, value: numberToHex(parseEther(stt)) },
  ]);
  await waitForReceipt(chain.request, String(hash));
}

/** Polls with real setTimeout (testing-library's waitFor polls with the faked setInterval). */
async function until(check: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
}

describe("useBalance (real anvil)", () => {
  it("reads the balance at once and again on refresh()", async () => {
    const address = privateKeyToAddress(generatePrivateKey());
    await fund(address, "1");
    const { result } = renderHook(() => useBalance(chain.request, address));
    await waitFor(() => expect(result.current.balance).toBe(parseEther("1")));
    await fund(address, "0.5");
    act(() => result.current.refresh());
    await waitFor(() => expect(result.current.balance).toBe(parseEther("1.5")));
    expect(result.current.error).toBeNull();
  });

  it("refreshes every 10 s while the page is visible", async () => {
    expect(BALANCE_REFRESH_MS).toBe(10_000);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const address = privateKeyToAddress(generatePrivateKey());
      const { result } = renderHook(() => useBalance(chain.request, address));
      await until(() => result.current.balance === 0n);
      await fund(address, "2");
      act(() => vi.advanceTimersByTime(BALANCE_REFRESH_MS - 1));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(result.current.balance).toBe(0n);
      act(() => vi.advanceTimersByTime(1));
      await until(() => result.current.balance === parseEther("2"));
    } finally {
      vi.useRealTimers();
    }
  });

  it("refreshes when the window gets focus back", async () => {
    const address = privateKeyToAddress(generatePrivateKey());
    const { result } = renderHook(() => useBalance(chain.request, address));
    await waitFor(() => expect(result.current.balance).toBe(0n));
    await fund(address, "3");
    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    await waitFor(() => expect(result.current.balance).toBe(parseEther("3")));
  });

  it("reports a chain that cannot be reached", async () => {
    const unreachable = (method: string) => Promise.reject(new Error(`${method} failed: HTTP 502`));
    const { result } = renderHook(() => useBalance(unreachable, chain.funder.address));
    await waitFor(() => expect(result.current.error).toBe("eth_getBalance failed: HTTP 502"));
    expect(result.current.balance).toBeNull();
  });
});
