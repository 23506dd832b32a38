import { GOOD_CODE, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import { PrivyProvider, useLoginWithSms, usePrivy } from "@symbolon/react";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, onTestFinished } from "vitest";
import { AccountsCard } from "./AccountsCard";

const APP_ID = "cltestapp0000000000000001";

let login: ReturnType<typeof useLoginWithSms> | null = null;
let ready = false;
function SignIn() {
  login = useLoginWithSms();
  ready = usePrivy().ready;
  return null;
}

async function renderSignedIn() {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  scriptApp(server, { config: { sms_auth: true } });
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
  return server;
}

describe("AccountsCard", () => {
  it("lists the phone, offers Link email, and shows the server's refusal to unlink the last account", async () => {
    await renderSignedIn();
    expect(await screen.findByRole("heading", { name: "Accounts" })).toBeTruthy();
    expect(screen.getByText("+12015550123")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Link email" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Link phone" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Unlink phone +12015550123" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Cannot unlink the only account of a user.");
  });
});
