import { GOOD_CODE, makeUser, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import { PrivyProvider, useLoginWithEmail, usePrivy } from "@symbolon/react";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, onTestFinished } from "vitest";
import { SecurityCard } from "./SecurityCard";

const APP_ID = "cltestapp0000000000000001";

let email: ReturnType<typeof useLoginWithEmail> | null = null;
let ready = false;
function EmailSignIn() {
  email = useLoginWithEmail();
  ready = usePrivy().ready;
  return null;
}

/** A passkey in server form. */
function passkey(id: string, { enrolledInMfa = false, name = null as string | null } = {}) {
  return {
    type: "passkey" as const,
    credential_id: id,
    authenticator_name: name,
    created_with_browser: "Chrome",
    created_with_os: "Linux",
    created_with_device: "desktop",
    enrolled_in_mfa: enrolledInMfa,
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
  };
}

type ServerUser = ReturnType<typeof makeUser>;

/** Signs in by email as a user whose accounts and MFA methods `user` gives; returns the scripted server. */
async function renderSignedIn(user: ServerUser) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, {});
  server.on("POST /api/v1/passwordless/authenticate", () => {
    app.user = user;
    return { json: app.issue() };
  });
  ready = false;
  render(
    <PrivyProvider
      appId={APP_ID}
      apiUrl={server.url}
      config={{ passkeys: { shouldUnenrollMfaOnUnlink: false } }}
    >
      <EmailSignIn />
      <SecurityCard />
    </PrivyProvider>,
  );
  await waitFor(() => expect(ready).toBe(true));
  await act(async () => {
    await email?.sendCode({ email: "ada@example.com" });
    await email?.loginWithCode({ code: GOOD_CODE });
  });
  await screen.findByRole("heading", { name: "Security" });
  return { server, app };
}

describe("SecurityCard", () => {
  it("lists passkeys with where they were made and the MFA badge, and the enrolled second factors", async () => {
    const base = makeUser();
    await renderSignedIn(
      makeUser({
        linked_accounts: [
          ...base.linked_accounts,
          passkey("cred-a", { name: "iCloud Keychain" }),
          passkey("cred-b", { enrolledInMfa: true }),
        ],
        mfa_methods: [
          { type: "totp", verified_at: 1 },
          { type: "passkey", verified_at: 1 },
        ],
      }),
    );
    const list = screen.getByRole("list", { name: "Passkeys" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      "Passkey 1iCloud KeychainUnlink",
      "Passkey 2Chrome on LinuxMFAUnlink",
    ]);
    const factors = screen.getByRole("list", { name: "Second factors" });
    expect(
      within(factors)
        .getAllByRole("listitem")
        .map((row) => row.textContent),
    ).toEqual(["Authenticator app", "Passkey"]);
    expect(screen.getByRole("button", { name: "Manage 2-step verification" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Set up 2-step verification" })).toBeNull();
    expect(screen.getByRole("button", { name: "Add a passkey" })).toBeTruthy();
  });

  it("unlinks a passkey by its credential id, and refuses one enrolled in MFA", async () => {
    const base = makeUser();
    const kept = passkey("cred-mfa", { enrolledInMfa: true });
    const { server, app } = await renderSignedIn(
      makeUser({
        linked_accounts: [...base.linked_accounts, passkey("cred-plain"), kept],
        mfa_methods: [{ type: "passkey", verified_at: 1 }],
      }),
    );
    server.on("POST /api/v1/passkeys/unlink", () => {
      app.user = makeUser({
        linked_accounts: [...base.linked_accounts, kept],
        mfa_methods: [{ type: "passkey", verified_at: 1 }],
      });
      return { json: app.user };
    });
    fireEvent.click(screen.getByRole("button", { name: "Unlink passkey 1" }));
    await waitFor(() =>
      expect(within(screen.getByRole("list", { name: "Passkeys" })).getAllByRole("listitem")).toHaveLength(1),
    );
    expect(server.hitsOf("POST /api/v1/passkeys/unlink")[0]?.body).toEqual({ credential_id: "cred-plain" });

    fireEvent.click(screen.getByRole("button", { name: "Unlink passkey 1" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Cannot unlink a passkey enrolled in MFA");
    expect(server.hitsOf("POST /api/v1/passkeys/unlink")).toHaveLength(1);
  });

  it("hides Add a passkey at five, and offers to set up 2-step verification when there is none", async () => {
    const base = makeUser();
    await renderSignedIn(
      makeUser({
        linked_accounts: [
          ...base.linked_accounts,
          ...["1", "2", "3", "4", "5"].map((n) => passkey(`cred-${n}`)),
        ],
      }),
    );
    expect(within(screen.getByRole("list", { name: "Passkeys" })).getAllByRole("listitem")).toHaveLength(5);
    expect(screen.queryByRole("button", { name: "Add a passkey" })).toBeNull();
    expect(screen.queryByRole("list", { name: "Second factors" })).toBeNull();
    expect(screen.getByRole("button", { name: "Set up 2-step verification" })).toBeTruthy();
  });

  it("with no passkey says so and offers Add a passkey; Set up 2-step verification opens the enrolment", async () => {
    await renderSignedIn(makeUser());
    expect(screen.getByText("No passkeys yet.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add a passkey" })).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Set up 2-step verification" }));
    expect(await screen.findByRole("dialog")).toBeTruthy();
  });
});
