import { GOOD_CODE, makeUser, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import { PrivyProvider, useLoginWithEmail, useLoginWithSms, usePrivy, useUser } from "@symbolon/react";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, onTestFinished } from "vitest";
import { AccountsCard } from "./AccountsCard";

const APP_ID = "cltestapp0000000000000001";

let login: ReturnType<typeof useLoginWithSms> | null = null;
let ready = false;
let refreshUser: (() => Promise<unknown>) | null = null;
function SignIn() {
  login = useLoginWithSms();
  ready = usePrivy().ready;
  refreshUser = useUser().refreshUser;
  return null;
}

let email: ReturnType<typeof useLoginWithEmail> | null = null;
function EmailSignIn() {
  email = useLoginWithEmail();
  ready = usePrivy().ready;
  return null;
}

async function renderSignedIn() {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config: { sms_auth: true } });
  render(
    <PrivyProvider appId={APP_ID} apiUrl={server.url}>
      <SignIn />
      <AccountsCard />
    </PrivyProvider>,
  );
  await waitFor(() => expect(ready).toBe(true));
  await act(async () => {
    await login?.sendCode({ phoneNumber: "+12015550123" });
    await login?.loginWithCode({ code: GOOD_CODE });
  });
  return { server, app };
}

describe("AccountsCard", () => {
  it("lists the phone as people write it, offers Link email, and shows the server's refusal to unlink the last account", async () => {
    const { server } = await renderSignedIn();
    expect(await screen.findByRole("heading", { name: "Accounts" })).toBeTruthy();
    expect(screen.getByText("+1 201 555 0123")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Link email" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Link phone" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Unlink phone +1 201 555 0123" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Cannot unlink the only account of a user.");
    // Unlinked by the stored number, not the shown one.
    expect(server.hitsOf("POST /api/v1/passwordless_sms/unlink")[0]?.body).toMatchObject({
      phoneNumber: "+12015550123",
    });
  });

  it("clears the refusal once the user's accounts change (another account linked)", async () => {
    const { app } = await renderSignedIn();
    fireEvent.click(await screen.findByRole("button", { name: "Unlink phone +1 201 555 0123" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Cannot unlink the only account of a user.");
    app.user = { ...app.user, linked_accounts: [...app.user.linked_accounts, ...makeUser().linked_accounts] };
    await act(async () => {
      await refreshUser?.();
    });
    expect(await screen.findByText("ada@example.com")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows nothing when the person closes the link flow (exited_link_flow is a choice, not an error)", async () => {
    await renderSignedIn();
    fireEvent.click(await screen.findByRole("button", { name: "Link email" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 3000 });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByText(/exited_link_flow/)).toBeNull();
  });

  it("lists GitHub by its login with Unlink by subject, and offers Link for the providers not linked yet", async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    const github = {
      type: "github_oauth" as const,
      subject: "583231",
      email: "octocat@example.com",
      name: "The Octocat",
      username: "octocat",
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    };
    const app = scriptApp(server, { config: { google_oauth: true, github_oauth: true } });
    // The email login answers the email account; GitHub is linked already.
    server.on("POST /api/v1/passwordless/authenticate", () => {
      app.user = makeUser({ linked_accounts: [...makeUser().linked_accounts, github] });
      return { json: app.issue() };
    });
    server.on("POST /api/v1/oauth/unlink", () => {
      app.user = makeUser();
      return { json: app.user };
    });
    ready = false;
    render(
      <PrivyProvider appId={APP_ID} apiUrl={server.url}>
        <EmailSignIn />
        <AccountsCard oauthProviders={["google", "github"]} />
      </PrivyProvider>,
    );
    await waitFor(() => expect(ready).toBe(true));
    await act(async () => {
      await email?.sendCode({ email: "ada@example.com" });
      await email?.loginWithCode({ code: GOOD_CODE });
    });
    expect(await screen.findByText("octocat")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Link Google" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Link GitHub" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Unlink github octocat" }));
    await waitFor(() => expect(screen.queryByText("octocat")).toBeNull());
    expect(server.hitsOf("POST /api/v1/oauth/unlink")[0]?.body).toEqual({
      provider: "github",
      subject: "583231",
    });
    expect(screen.getByRole("button", { name: "Link GitHub" })).toBeTruthy();
  });
  it("lists external wallets (not the embedded one) with Unlink, and offers Link a wallet", async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    const wallet = (address: string, chain: "ethereum" | "solana", connector: string, client: string) => ({
      type: "wallet" as const,
      id: null,
      address,
      chain_type: chain,
      wallet_client_type: client,
      connector_type: connector,
      wallet_index: connector === "embedded" ? 0 : null,
      recovery_method: null,
      imported: false,
      delegated: false,
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    });
    const external = wallet("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "ethereum", "injected", "metamask");
    const solana = wallet(
      "9jMpjGCWFPbSK5qLKUhpHVGqwHtMgPBsXS4PBLpet8hb",
      "solana",
      "solana_adapter",
      "phantom",
    );
    const embedded = wallet("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "ethereum", "embedded", "privy");
    const app = scriptApp(server, {});
    server.on("POST /api/v1/passwordless/authenticate", () => {
      app.user = makeUser({ linked_accounts: [...makeUser().linked_accounts, external, solana, embedded] });
      return { json: app.issue() };
    });
    server.on("POST /api/v1/siwe/unlink", () => {
      app.user = makeUser({ linked_accounts: [...makeUser().linked_accounts, solana, embedded] });
      return { json: app.user };
    });
    ready = false;
    render(
      <PrivyProvider appId={APP_ID} apiUrl={server.url}>
        <EmailSignIn />
        <AccountsCard />
      </PrivyProvider>,
    );
    await waitFor(() => expect(ready).toBe(true));
    await act(async () => {
      await email?.sendCode({ email: "ada@example.com" });
      await email?.loginWithCode({ code: GOOD_CODE });
    });
    expect(await screen.findByText(external.address)).toBeTruthy();
    expect(screen.getByText("Ethereum wallet")).toBeTruthy();
    expect(screen.getByText(solana.address)).toBeTruthy();
    expect(screen.getByText("Solana wallet")).toBeTruthy();
    expect(screen.queryByText(embedded.address)).toBeNull();
    expect(screen.getByRole("button", { name: "Link a wallet" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: `Unlink ethereum wallet ${external.address}` }));
    await waitFor(() => expect(screen.queryByText(external.address)).toBeNull());
    expect(server.hitsOf("POST /api/v1/siwe/unlink")[0]?.body).toEqual({ address: external.address });
    expect(screen.getByText(solana.address)).toBeTruthy();
  });
});
