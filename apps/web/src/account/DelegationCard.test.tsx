import {
  DELEGATION_SIGNER,
  embeddedWalletAccount,
  GOOD_CODE,
  makeUser,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";
import { PrivyProvider, useLoginWithEmail, usePrivy } from "@symbolon/react";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, onTestFinished } from "vitest";
import { DelegationCard } from "./DelegationCard";

const APP_ID = "cltestapp0000000000000001";
const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

let email: ReturnType<typeof useLoginWithEmail> | null = null;
let ready = false;
function EmailSignIn() {
  email = useLoginWithEmail();
  ready = usePrivy().ready;
  return null;
}

/** Signs in by email as a user with an embedded wallet, `delegated` or not; returns the scripted server. */
async function renderSignedIn({ delegated }: { delegated: boolean }) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config: { name: "Acme" } });
  server.on("POST /api/v1/passwordless/authenticate", () => {
    const base = makeUser();
    app.user = makeUser({
      linked_accounts: [...base.linked_accounts, { ...embeddedWalletAccount(ADDRESS, 0), delegated }],
    });
    return { json: app.issue() };
  });
  ready = false;
  render(
    <PrivyProvider appId={APP_ID} apiUrl={server.url}>
      <EmailSignIn />
      <DelegationCard />
    </PrivyProvider>,
  );
  await waitFor(() => expect(ready).toBe(true));
  expect(screen.queryByRole("heading", { name: "Delegated actions" })).toBeNull();
  await act(async () => {
    await email?.sendCode({ email: "ada@example.com" });
    await email?.loginWithCode({ code: GOOD_CODE });
  });
  await screen.findByRole("heading", { name: "Delegated actions" });
  return { server, app };
}

const closed = () => waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 5000 });

describe("DelegationCard", () => {
  it("shows the wallet as not delegated; Delegate to this app opens the consent screen with the app's rules", async () => {
    await renderSignedIn({ delegated: false });
    expect(screen.getByTestId("delegation-wallet").textContent).toBe(ADDRESS);
    expect(screen.getByTestId("delegation-state").textContent).toBe("Not delegated");
    fireEvent.click(screen.getByRole("button", { name: "Delegate to this app" }));
    const dialog = await screen.findByRole("dialog", {
      name: "Allow Acme to use your wallet while you're away",
    });
    await within(dialog).findByText(DELEGATION_SIGNER.policies[0]?.name ?? "");
    // Not now is the user's answer: the card shows no error.
    fireEvent.click(within(dialog).getByRole("button", { name: "Not now" }));
    await closed();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByTestId("delegation-state").textContent).toBe("Not delegated");
  });

  it("shows a delegated wallet; Revoke asks, revokes and the card says so", async () => {
    const { server } = await renderSignedIn({ delegated: true });
    expect(screen.getByTestId("delegation-state").textContent).toBe("Delegated to this app");
    fireEvent.click(screen.getByRole("button", { name: "Revoke" }));
    const dialog = await screen.findByRole("dialog", { name: "Stop Acme from using your wallet?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke" }));
    await within(dialog).findByRole("heading", { name: "Access revoked" });
    await waitFor(() => expect(screen.getByTestId("delegation-state").textContent).toBe("Not delegated"));
    expect(server.hitsOf("POST /api/v1/wallets/revoke")).toHaveLength(1);
    await closed();
    expect(screen.getByRole("button", { name: "Delegate to this app" })).toBeTruthy();
  });
});
