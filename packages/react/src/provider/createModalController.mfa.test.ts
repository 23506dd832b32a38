import {
  type Client,
  createClient,
  createMemoryStorage,
  FLOW_CLEAR_DELAY_MS,
  type MfaState,
  MODAL_OPEN_DELAY_MS,
  type User,
} from "@symbolon/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SUCCESS_CLOSE_DELAY_MS } from "../modal/flows/showSuccess";
import { screenActionsOf } from "../modal/screenActions";
import { TEST_APP_ID } from "../test/startTestServer";
import { createModalController } from "./createModalController";

const user: User = {
  id: "did:privy:1",
  created_at: 0,
  linked_accounts: [],
  mfa_methods: [{ type: "totp", verified_at: 0 }] as User["mfa_methods"],
  has_accepted_terms: true,
  is_guest: false,
};

function setup() {
  const client = createClient({
    appId: TEST_APP_ID,
    apiUrl: "http://localhost:1",
    storage: createMemoryStorage(),
    broadcast: false,
  });
  client.store.setState({ ready: true, authenticated: true, user });
  return { client, controller: createModalController(client) };
}

const setMfa = (client: Client, patch: Partial<MfaState>) =>
  client.store.setState({ mfaState: { ...client.store.getState().mfaState, ...patch } });

const PENDING = {
  methods: ["totp" as const],
  attempt: 1,
  maxAttempts: 4,
  deadline: 0,
  overallDeadline: 0,
  error: null,
};

describe("the modal follows core's MFA state", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("verify opens the verification alone; verified closes it and clears core's modal", () => {
    const { client, controller } = setup();
    setMfa(client, { modal: "verify", pending: PENDING });
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ open: true, flow: "mfa", verifying: true });
    setMfa(client, { pending: null, verification: { status: "verified", method: "totp", error: null } });
    expect(controller.getState().open).toBe(false);
    expect(client.store.getState().mfaState.modal).toBeNull();
    vi.advanceTimersByTime(FLOW_CLEAR_DELAY_MS);
    expect(controller.getState()).toMatchObject({ flow: null, verifying: false });
  });

  it("a refused end (max attempts) stays until closed; closing clears core's modal", () => {
    const { client, controller } = setup();
    setMfa(client, { modal: "verify", pending: PENDING });
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    setMfa(client, { pending: null, verification: { status: "error", method: "totp", error: null } });
    expect(controller.getState()).toMatchObject({ open: true, verifying: true });
    controller.close();
    expect(controller.getState().open).toBe(false);
    expect(client.store.getState().mfaState).toMatchObject({ modal: null });
  });

  it("over another flow: the flow stays under it; closing the verification closes that flow too", () => {
    const { client, controller } = setup();
    controller.openExport("0xabc");
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    setMfa(client, { modal: "verify", pending: PENDING });
    expect(controller.getState()).toMatchObject({ open: true, flow: "export", verifying: true });
    controller.close();
    expect(controller.getState()).toMatchObject({ open: false, verifying: false });
    expect(client.store.getState().mfaState.modal).toBeNull();
  });

  it("enroll opens the enrolment, after the flow on screen has closed", () => {
    const { client, controller } = setup();
    controller.openPasskeys();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    controller.flows.passkeys.passkeysSaved(user);
    setMfa(client, { modal: "enroll" });
    expect(controller.getState().flow).toBe("passkeys");
    vi.advanceTimersByTime(SUCCESS_CLOSE_DELAY_MS + FLOW_CLEAR_DELAY_MS + MODAL_OPEN_DELAY_MS);
    expect(controller.getState()).toMatchObject({ open: true, flow: "mfa-enroll", screen: "mfa-enroll" });
    controller.close();
    expect(client.store.getState().mfaState.modal).toBeNull();
  });

  it("'Continue with a passkey' shows the passkey screen; passkey management needs a signed-in user", () => {
    const { client, controller } = setup();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    client.store.setState({ authenticated: false, user: null });
    controller.openPasskeys();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    expect(controller.getState().open).toBe(false);
    expect(warn).toHaveBeenCalled();
    controller.login();
    vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS);
    screenActionsOf(controller, client).methods.chooseMethod("passkey");
    expect(controller.getState()).toMatchObject({ flow: "login", screen: "passkey" });
  });
});
