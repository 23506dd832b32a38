import {
  ApiError,
  createClient,
  createMemoryStorage,
  FLOW_CLEAR_DELAY_MS,
  type LoginResult,
  MODAL_OPEN_DELAY_MS,
  type User,
  type WalletConfirmationRequest,
} from "@symbolon/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ModalOutcome } from "../modal/flows/createAccountFlow";
import { PENDING_CODE_KEEP_MS } from "../modal/flows/createCodeFlow";
import { SUCCESS_CLOSE_DELAY_MS } from "../modal/flows/showSuccess";
import { screenActionsOf } from "../modal/screenActions";
import { TEST_APP_ID } from "../test/startTestServer";
import { createModalController } from "./createModalController";

/** The modal once a closed flow is cleared: no flow, no screen, nothing of the last one left. */
const CLEARED = { requested: true, open: false, verifying: false, flow: null, screen: null };

const user: User = {
  id: "did:privy:1",
  created_at: 0,
  linked_accounts: [],
  mfa_methods: [],
  has_accepted_terms: false,
  is_guest: false,
};

function setup() {
  const client = createClient({
    appId: TEST_APP_ID,
    apiUrl: "http://localhost:1",
    storage: createMemoryStorage(),
    broadcast: false,
  });
  client.store.setState({ ready: true });
  const controller = createModalController(client);
  const outcomes: ModalOutcome[] = [];
  controller.onOutcome((outcome) => outcomes.push(outcome));
  // What the screens call, as the modal's code builds it.
  const actions = screenActionsOf(controller, client);
  return { client, controller, actions, outcomes };
}

describe("createModalController", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("opens the login flow 15 ms after login(), loading the modal at once", () => {
    const { controller } = setup();
    controller.login();
    expect(controller.getState()).toMatchObject({ requested: true, open: false });
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS - 1);
    expect(controller.getState().open).toBe(false);
    vi.advanceTimersByTime(1);
    expect(controller.getState()).toMatchObject({ open: true, flow: "login", screen: "methods" });
  });

  it("ignores login() with a warning while a user is signed in (spec §5)", () => {
    const { client, controller } = setup();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    client.store.setState({ authenticated: true, user });
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState().open).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("already logged in"));
  });

  it("lets a guest log in", () => {
    const { client, controller } = setup();
    client.store.setState({ authenticated: true, user: { ...user, is_guest: true } });
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState().open).toBe(true);
  });

  it("reports exited_auth_flow when closed before success and clears the flow 200 ms later", () => {
    const { client, controller, outcomes, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.code.codeSent("ada@example.com");
    client.store.setState({
      emailFlow: { status: "awaiting-code-input", email: "ada@example.com", error: null },
    });
    controller.close();
    expect(outcomes).toEqual([{ type: "error", flow: "login", code: "exited_auth_flow" }]);
    expect(controller.getState()).toMatchObject({ open: false, screen: "code" });
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS - 1);
    expect(controller.getState().email).toBe("ada@example.com");
    vi.advanceTimersByTime(1);
    expect(controller.getState()).toEqual(CLEARED);
    expect(client.store.getState().emailFlow.status).toBe("initial");
  });

  it("reopened soon after a close, shows the code screen again with the resend wait still running", () => {
    const { controller, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.code.codeSent("ada@example.com");
    actions.code.waitBeforeResend("ada@example.com", 20);
    controller.close();
    vi.advanceTimersByTime(5_000);
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ open: true, screen: "code", email: "ada@example.com" });
    // The code screen of that address carries the wait.
    const wait = controller.getState().resendWaitUntil;
    expect((wait ?? 0) - Date.now()).toBe(20_000 - 5_000 - MODAL_OPEN_DELAY_MS);
  });

  it("starts from the email screen when reopened after the code has waited long enough", () => {
    const { controller, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.code.codeSent("ada@example.com");
    controller.close();
    vi.advanceTimersByTime(PENDING_CODE_KEEP_MS);
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ open: true, screen: "methods", email: null });
  });

  it("goes back to the email screen with Change email, keeping the address to edit", () => {
    const { controller, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.code.codeSent("ada@example.com");
    actions.code.changeAddress();
    expect(controller.getState()).toMatchObject({ screen: "methods", email: "ada@example.com" });
    controller.close();
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ screen: "methods", email: null });
  });

  it("shows success, then closes by itself and reports completion once", () => {
    const { controller, outcomes, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    const result: LoginResult = { user, isNewUser: false, wasAlreadyAuthenticated: false };
    actions.account.succeed(result);
    expect(controller.getState().screen).toBe("success");
    vi.advanceTimersByTime(SUCCESS_CLOSE_DELAY_MS);
    expect(controller.getState().open).toBe(false);
    controller.close();
    expect(outcomes).toEqual([{ type: "complete", flow: "login", result }]);
  });
});

describe("createModalController link and update flows", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const signedIn = () => {
    const setup_ = setup();
    setup_.client.store.setState({ authenticated: true, user });
    const all: ModalOutcome[] = [];
    setup_.controller.onOutcome((outcome) => all.push(outcome), "all");
    return { ...setup_, all };
  };

  it("openLink('phone') opens the phone screen of a link flow; closing reports exited_link_flow to link listeners only", () => {
    const { client, controller, outcomes, all, actions } = signedIn();
    const linkOnly: ModalOutcome[] = [];
    controller.onOutcome((outcome) => linkOnly.push(outcome), "link");
    client.store.setState({
      emailFlow: { status: "awaiting-code-input", email: "x@example.com", error: null },
    });
    controller.openLink("phone");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ open: true, flow: "link", screen: "phone" });
    expect(controller.flows.account.session().kind).toBe("phone");
    actions.code.codeSent("+12015550123", "sms");
    expect(controller.getState()).toMatchObject({
      screen: "code",
      channel: "sms",
      phoneNumber: "+12015550123",
    });
    controller.close();
    const exit = { type: "error", flow: "link", code: "exited_link_flow", kind: "phone" };
    expect(linkOnly).toEqual([exit]);
    expect(all).toEqual([exit]);
    // useLogin's listener (the default: login outcomes only) hears nothing.
    expect(outcomes).toEqual([]);
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS - 1);
    expect(controller.getState().flow).toBe("link");
    vi.advanceTimersByTime(1);
    expect(controller.getState()).toEqual(CLEARED);
    expect(client.store.getState().emailFlow.status).toBe("initial");
  });

  it("openUpdate('email') reports exited_update_flow when closed, and success after accountSaved", () => {
    const { controller, all, actions } = signedIn();
    controller.openUpdate("email");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ flow: "update", screen: "email" });
    expect(controller.flows.account.session().kind).toBe("email");
    controller.close();
    expect(all).toEqual([{ type: "error", flow: "update", code: "exited_update_flow", kind: "email" }]);
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    controller.openUpdate("email");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.code.codeSent("new@example.com");
    actions.account.saved(user);
    expect(controller.getState().screen).toBe("success");
    vi.advanceTimersByTime(SUCCESS_CLOSE_DELAY_MS);
    expect(all[1]).toMatchObject({ type: "complete", flow: "update", kind: "email", result: { user } });
  });

  it("does not open a link flow for a signed-out visitor (spec §5)", () => {
    const { controller } = setup();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    controller.openLink("email");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState().open).toBe(false);
    expect(warn).toHaveBeenCalledWith("User must be authenticated before linking an account.");
  });

  it("routes refusals to their screens and leaves other errors alone", () => {
    const { controller, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(
      controller.flows.refusal.refuse(
        Object.assign(new Error("Invalid code"), { code: "invalid_credentials" }),
      ),
    ).toBe(false);
    expect(controller.getState().screen).toBe("methods");
    expect(
      controller.flows.refusal.refuse(Object.assign(new Error("no"), { code: "allowlist_rejected" })),
    ).toBe(true);
    expect(controller.getState()).toMatchObject({
      screen: "refusal",
      refusal: { code: "allowlist_rejected" },
    });
    actions.methods.back();
    expect(controller.getState().screen).toBe("methods");
    const transfer = new ApiError("account_transfer_required", "owned", 409, {
      data: {
        nonce: "n-1",
        account_type: "email",
        display_name: "ada@example.com",
        embedded_wallet_address: null,
      },
    });
    controller.flows.refusal.refuse(transfer);
    expect(controller.getState()).toMatchObject({
      screen: "transfer",
      refusal: { transfer: { nonce: "n-1", accountType: "email", displayName: "ada@example.com" } },
    });
    // Without its nonce a transfer cannot be offered: the account is simply linked to another user.
    controller.flows.refusal.refuse(Object.assign(new Error("owned"), { code: "account_transfer_required" }));
    expect(controller.getState()).toMatchObject({
      screen: "refusal",
      refusal: { code: "linked_to_another_user" },
    });
  });

  it("shows the terms screen after a login when the app requires them; closing it logs out", async () => {
    const { client, controller, outcomes, actions } = setup();
    const app = client.store.getState();
    client.store.setState({
      appConfig: { ...(app.appConfig ?? {}), require_users_accept_terms: true } as never,
    });
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.account.succeed({ user, isNewUser: true, wasAlreadyAuthenticated: false });
    expect(controller.getState()).toMatchObject({ screen: "terms" });
    expect(controller.flows.account.session().result).toBeNull();
    controller.close();
    expect(outcomes).toEqual([{ type: "error", flow: "login", code: "exited_auth_flow" }]);
  });

  it("finishes the login once the terms are accepted", () => {
    const { client, controller, outcomes, actions } = setup();
    client.store.setState({ appConfig: { require_users_accept_terms: true } as never });
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.account.succeed({ user, isNewUser: true, wasAlreadyAuthenticated: false });
    const accepted = { ...user, has_accepted_terms: true };
    actions.account.termsAccepted(accepted);
    expect(controller.getState().screen).toBe("success");
    vi.advanceTimersByTime(SUCCESS_CLOSE_DELAY_MS);
    expect(outcomes).toEqual([
      {
        type: "complete",
        flow: "login",
        result: { user: accepted, isNewUser: true, wasAlreadyAuthenticated: false },
      },
    ]);
  });

  it("reopened soon after a close, resumes an SMS code with its number and entry screen", () => {
    const { controller, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.methods.chooseMethod("sms");
    actions.code.codeSent("+12015550123", "sms");
    controller.close();
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({
      screen: "code",
      channel: "sms",
      phoneNumber: "+12015550123",
      entry: "phone",
    });
    actions.code.changeAddress();
    expect(controller.getState().screen).toBe("phone");
  });

  it("steps through the login screen's methods: a method, More options, Back", () => {
    const { controller, actions } = setup();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    actions.methods.showMore();
    expect(controller.getState().screen).toBe("more");
    actions.methods.chooseMethod("sms");
    expect(controller.getState()).toMatchObject({ screen: "phone" });
    actions.code.codeSent("+12015550123", "sms");
    // The code screen goes back where the number was typed.
    expect(controller.getState()).toMatchObject({ screen: "code", entry: "phone" });
    actions.code.changeAddress();
    expect(controller.getState()).toMatchObject({ screen: "phone", phoneNumber: "+12015550123" });
    actions.methods.back();
    expect(controller.getState().screen).toBe("methods");
  });
});

describe("createModalController wallet screens", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const request = (message: string): WalletConfirmationRequest => ({
    kind: "sign-message",
    address: "0x000000000000000000000000000000000000dEaD",
    chain: {
      id: 1,
      name: "Ethereum",
      rpcUrl: "",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    },
    message,
  });

  it("opens a confirmation, resolves with the answer, and shows queued ones one after the other", async () => {
    const { controller, outcomes } = setup();
    const first = controller.confirm(request("one"));
    const second = controller.confirm(request("two"));
    await vi.advanceTimersByTimeAsync(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ requested: true, open: true, flow: "confirm" });
    expect(controller.getState().confirmation?.message).toBe("one");
    controller.resolveConfirmation(true);
    await expect(first).resolves.toBe(true);
    expect(controller.getState().open).toBe(false);
    await vi.advanceTimersByTimeAsync(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ open: true, flow: "confirm" });
    expect(controller.getState().confirmation?.message).toBe("two");
    // Closing the modal refuses; wallet flows report no login outcome.
    controller.close();
    await expect(second).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(FLOW_CLEAR_DELAY_MS);
    expect(controller.getState()).toEqual(CLEARED);
    expect(outcomes).toEqual([]);
  });

  it("opens the export screen for an address and closes it", async () => {
    const { controller, outcomes } = setup();
    controller.openExport("0xabc");
    await vi.advanceTimersByTimeAsync(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ open: true, flow: "export", exportAddress: "0xabc" });
    controller.close();
    await vi.advanceTimersByTimeAsync(FLOW_CLEAR_DELAY_MS);
    expect(controller.getState()).toEqual(CLEARED);
    expect(outcomes).toEqual([]);
  });

  it("refuses a pending confirmation when destroyed", async () => {
    const { controller } = setup();
    const pending = controller.confirm(request("x"));
    await vi.advanceTimersByTimeAsync(MODAL_OPEN_DELAY_MS);
    controller.destroy();
    await expect(pending).resolves.toBe(false);
  });
});

describe("createModalController Farcaster signer flow", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const approved = { public_key: "0xab", status: "approved" as const };

  it("shows the signer screen for the key and resolves with the approved signer, then closes", async () => {
    const { controller } = setup();
    const waiting = controller.requestFarcasterSigner("0xab");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({
      open: true,
      flow: "signer",
      screen: "farcaster-signer",
      signerPublicKey: "0xab",
    });
    controller.flows.signer.settleFarcasterSigner({ signer: approved });
    await expect(waiting).resolves.toEqual(approved);
    expect(controller.getState().screen).toBe("success");
    vi.advanceTimersByTime(SUCCESS_CLOSE_DELAY_MS);
    expect(controller.getState().open).toBe(false);
  });

  it("rejects with the screen's error ('Request rejected'), and when the modal is closed first", async () => {
    const { controller } = setup();
    const rejected = controller.requestFarcasterSigner("0xab");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    controller.flows.signer.settleFarcasterSigner({ error: new Error("Request rejected") });
    await expect(rejected).rejects.toThrow("Request rejected");
    controller.close();
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    const closed = controller.requestFarcasterSigner("0xab");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    controller.close();
    await expect(closed).rejects.toThrow("closed");
  });

  describe("external wallets", () => {
    it("linkWallet needs a signed-in user; it opens the wallet list in link mode", () => {
      const { client, controller } = setup();
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      controller.openLinkWallet();
      vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
      expect(controller.getState().open).toBe(false);
      expect(warn).toHaveBeenCalledWith("User must be authenticated before linking an account.");
      client.store.setState({ authenticated: true, user });
      controller.openLinkWallet();
      vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
      expect(controller.getState()).toMatchObject({ open: true, flow: "link", screen: "wallets" });
    });

    it("connect-or-create requires being signed out (spec §5); a guest counts as signed out", () => {
      const { client, controller, actions } = setup();
      vi.spyOn(console, "warn").mockImplementation(() => {});
      client.store.setState({ authenticated: true, user });
      controller.openConnectOrCreate();
      vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
      expect(controller.getState().open).toBe(false);
      client.store.setState({ user: { ...user, is_guest: true } });
      controller.openConnectOrCreate();
      vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
      expect(controller.getState()).toMatchObject({
        open: true,
        flow: "connect-or-create",
        screen: "methods",
      });
      actions.methods.chooseMethod("wallet");
      expect(controller.getState().screen).toBe("wallets");
      actions.methods.back();
      expect(controller.getState().screen).toBe("methods");
    });

    it("closing reports through onWalletOutcome only: connect-or-create as the user's exit", () => {
      const { controller, outcomes } = setup();
      const wallet: unknown[] = [];
      controller.onWalletOutcome((outcome) => wallet.push(outcome));
      controller.openConnectOrCreate();
      vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
      controller.close();
      expect(wallet).toEqual([{ type: "error", flow: "connect-or-create", code: "exited_auth_flow" }]);
      expect(outcomes).toEqual([]);
    });
  });
});
