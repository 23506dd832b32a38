import { DELEGATION_SUCCESS_CLOSE_MS, FLOW_CLEAR_DELAY_MS, MODAL_OPEN_DELAY_MS } from "@symbolon/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createModalCore } from "../core/createModalCore";
import { conditionText, ruleText } from "../policyText";
import {
  DELEGATION_DECLINED_MESSAGE,
  type DelegationScreen,
  type DelegationScreenState,
  openDelegationScreen,
  REVOKE_CANCELLED_MESSAGE,
} from "./createDelegationFlow";

const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const nothing = async () => {};
const consent: DelegationScreen = {
  flow: "delegation",
  screen: "delegation-consent",
  address: ADDRESS,
  terms: () => Promise.reject(new Error("unused")),
  allow: nothing,
};
const revoke: DelegationScreen = {
  flow: "delegation",
  screen: "delegation-revoke",
  wallets: [ADDRESS],
  revoke: nothing,
};

/** What the screen on show calls once its work succeeded. */
const done = (core: ReturnType<typeof createModalCore>) => (core.current() as DelegationScreenState).done();

describe("the delegation screens' opener", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("opens the screen; done resolves and closes exactly DELEGATION_SUCCESS_CLOSE_MS later", async () => {
    const core = createModalCore();
    const delegating = openDelegationScreen(core, consent);
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(core.getState()).toMatchObject({
      open: true,
      flow: "delegation",
      screen: "delegation-consent",
      address: ADDRESS,
    });
    done(core);
    done(core);
    await expect(delegating).resolves.toBeUndefined();
    vi.advanceTimersByTime(DELEGATION_SUCCESS_CLOSE_MS - 1);
    expect(core.getState().open).toBe(true);
    vi.advanceTimersByTime(1);
    expect(core.getState().open).toBe(false);
  });

  it("closing rejects: the consent as declined, the revoke as cancelled", async () => {
    const core = createModalCore();
    const declined = openDelegationScreen(core, consent);
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    core.close();
    await expect(declined).rejects.toThrow(DELEGATION_DECLINED_MESSAGE);
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    const cancelled = openDelegationScreen(core, revoke);
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(core.getState()).toMatchObject({ open: true, screen: "delegation-revoke", wallets: [ADDRESS] });
    core.close();
    await expect(cancelled).rejects.toThrow(REVOKE_CANCELLED_MESSAGE);
  });

  it("a success the user closed early does not close the next flow", async () => {
    const core = createModalCore();
    const revoking = openDelegationScreen(core, revoke);
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    done(core);
    await revoking;
    core.close();
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    void openDelegationScreen(core, consent).catch(() => {});
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    vi.advanceTimersByTime(DELEGATION_SUCCESS_CLOSE_MS);
    expect(core.getState()).toMatchObject({ open: true, screen: "delegation-consent" });
  });

  it("rejects when the modal is busy with another flow", async () => {
    const core = createModalCore();
    void openDelegationScreen(core, revoke).catch(() => {});
    await expect(openDelegationScreen(core, consent)).rejects.toThrow("The modal is busy with another flow.");
  });
});

describe("policies in plain words", () => {
  it("says a rule's action, method and conditions", () => {
    expect(
      ruleText({
        id: "r",
        name: "n",
        action: "ALLOW",
        method: "eth_signTypedData_v4",
        conditions: [
          { field_source: "ethereum_typed_data_domain", field: "chainId", operator: "eq", value: "1" },
          { field_source: "ethereum_typed_data_message", field: "to", operator: "in", value: ["0xa", "0xb"] },
        ],
      }),
    ).toBe(
      "ALLOW eth_signTypedData_v4 if ethereum_typed_data_domain.chainId eq 1 and ethereum_typed_data_message.to in [0xa, 0xb]",
    );
    expect(ruleText({ id: "r", name: "n", action: "DENY", method: "*", conditions: [] })).toBe(
      "DENY any method always",
    );
    expect(
      conditionText({
        field_source: "system",
        field: "current_unix_timestamp",
        operator: "lt",
        value: "1900000000",
      }),
    ).toBe("system.current_unix_timestamp lt 1900000000");
  });

  it("says a per-period limit as the window's total, and an unknown reference as it is", () => {
    const daily = {
      id: "agg1",
      created_at: 0,
      name: "daily spend",
      method: "eth_signTransaction",
      metric: { field_source: "ethereum_transaction", field: "value", function: "sum" },
      window: { type: "rolling", seconds: 86_400 },
      owner_id: null,
    };
    const cap = { field_source: "reference", field: "aggregation.agg1", operator: "gt", value: "2" } as const;
    expect(conditionText(cap, [daily])).toBe("the 24 h total of ethereum_transaction.value gt 2");
    expect(conditionText(cap)).toBe("reference.aggregation.agg1 gt 2");
  });
});
