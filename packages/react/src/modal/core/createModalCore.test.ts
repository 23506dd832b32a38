import { FLOW_CLEAR_DELAY_MS, MODAL_OPEN_DELAY_MS } from "@symbolon/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createModalCore, type FlowSession } from "./createModalCore";

const exportScreen = (address: string): FlowSession => ({
  screen: { flow: "export", screen: "export", exportAddress: address },
});
const CLEARED = { requested: true, open: false, verifying: false, flow: null, screen: null };

describe("the modal core", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("asks for the modal's code at once and opens the flow's first screen after the open delay", () => {
    const core = createModalCore();
    const start = vi.fn(() => exportScreen("0xa"));
    expect(core.open(start)).toBe(true);
    expect(core.getState()).toMatchObject({ requested: true, open: false });
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(core.getState()).toEqual({
      requested: true,
      open: true,
      verifying: false,
      flow: "export",
      screen: "export",
      exportAddress: "0xa",
    });
    expect(core.current()).toEqual({ flow: "export", screen: "export", exportAddress: "0xa" });
  });

  it("drops a second flow asked for while one is opening or open, unless it waits its turn", () => {
    const core = createModalCore();
    core.open(() => exportScreen("0xa"));
    expect(core.open(() => exportScreen("0xb"))).toBe(false);
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(core.open(() => exportScreen("0xc"))).toBe(false);
    // Waiting: the first no longer wants to open when its turn comes; the second does.
    expect(core.open(() => null, "wait")).toBe(true);
    expect(core.open(() => exportScreen("0xd"), "wait")).toBe(true);
    expect(core.getState()).toMatchObject({ exportAddress: "0xa" });
    core.close();
    // Each turn opens after the open delay.
    vi.advanceTimersByTime(2 * MODAL_OPEN_DELAY_MS);
    expect(core.getState()).toMatchObject({ open: true, exportAddress: "0xd" });
  });

  it("closing settles the flow, then tells the close listeners; the screen stays until cleared", () => {
    const core = createModalCore();
    const calls: string[] = [];
    core.onClose(() => calls.push(`listener saw ${core.current()?.screen}`));
    core.open(() => ({
      ...exportScreen("0xa"),
      closed: () => calls.push("closed"),
      cleared: () => calls.push("cleared"),
    }));
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    core.close();
    core.close();
    expect(calls).toEqual(["closed", "listener saw export"]);
    expect(core.getState()).toMatchObject({ open: false, screen: "export" });
    // Closed: the flow's late steps change nothing.
    core.show({ flow: "export", screen: "export", exportAddress: "0xb" });
    expect(core.getState()).toMatchObject({ exportAddress: "0xa" });
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    expect(core.getState()).toEqual(CLEARED);
    expect(calls).toEqual(["closed", "listener saw export", "cleared"]);
  });

  it("a flow opened before the clear keeps its screen, and the closed one is not cleared", () => {
    const core = createModalCore();
    const cleared = vi.fn();
    core.open(() => ({ ...exportScreen("0xa"), cleared }));
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    core.close();
    core.open(() => exportScreen("0xb"));
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    expect(core.getState()).toMatchObject({ open: true, exportAddress: "0xb" });
    expect(cleared).not.toHaveBeenCalled();
  });

  it("shows the MFA verification over the screen, and opens with it when the flow asks", () => {
    const core = createModalCore();
    core.open(() => ({ screen: { flow: "mfa", screen: "mfa-verify" }, verifying: true }));
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(core.getState()).toMatchObject({ open: true, flow: "mfa", verifying: true });
    core.setVerifying(false);
    expect(core.getState()).toMatchObject({ open: true, flow: "mfa", verifying: false });
  });

  it("destroyed: runs the flows' clean-ups and never opens what was under way", () => {
    const core = createModalCore();
    const cleanup = vi.fn();
    core.onDestroy(cleanup);
    const start = vi.fn(() => exportScreen("0xa"));
    core.open(start);
    core.destroy();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(start).not.toHaveBeenCalled();
    expect(core.getState().open).toBe(false);
  });
});
