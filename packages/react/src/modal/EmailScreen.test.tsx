import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp } from "../test/renderApp";

async function openEmailScreen() {
  fireEvent.click(screen.getByRole("button", { name: "Log in" }));
  const dialog = await screen.findByRole("dialog", { name: "Log in or sign up" });
  const input = within(dialog).getByLabelText("Email address");
  const submit = within(dialog).getByRole("button", { name: "Submit" }) as HTMLButtonElement;
  const type = (value: string) => fireEvent.change(input, { target: { value } });
  return { dialog, input, submit, type };
}

describe("email screen", () => {
  it("keeps Submit disabled until the address is valid", async () => {
    await renderApp();
    const { dialog, submit, type } = await openEmailScreen();
    expect(submit.disabled).toBe(true);
    expect(within(dialog).queryByRole("alert")).toBeNull();
    type("n");
    // Not red at the first character: the message waits for the field to lose focus.
    expect(within(dialog).queryByRole("alert")).toBeNull();
    type("not-an-email");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(submit.disabled).toBe(true);
    fireEvent.blur(within(dialog).getByLabelText("Email address"));
    expect(within(dialog).getByRole("alert").textContent).toBe("Please enter a valid email address.");
    expect(submit.disabled).toBe(true);
    type("ada@example.com");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(submit.disabled).toBe(false);
  });

  it("refuses a '+' address with the spec message when the app disables plus emails", async () => {
    await renderApp({ disablePlusEmails: true });
    const { dialog, submit, type } = await openEmailScreen();
    type("ada+");
    // A '+' is wrong at once, whatever follows: the spec's message shows while typing.
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "Please enter a valid email address without a '+'.",
    );
    type("ada+news@example.com");
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "Please enter a valid email address without a '+'.",
    );
    expect(submit.disabled).toBe(true);
  });

  it("accepts a '+' address when the app allows them", async () => {
    await renderApp({ disablePlusEmails: false });
    const { dialog, submit, type } = await openEmailScreen();
    type("ada+news@example.com");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(submit.disabled).toBe(false);
  });

  it("does not send a code when Enter is pressed on an invalid address", async () => {
    const app = await renderApp();
    const { input, type } = await openEmailScreen();
    type("ada@");
    fireEvent.submit(input);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.server.sentTo).toEqual([]);
    expect(screen.queryByRole("heading", { name: "Enter confirmation code" })).toBeNull();
  });

  it("disables Submit and shows 'Submitting' while the code is being sent; Enter submits", async () => {
    const app = await renderApp();
    const { input, submit, type } = await openEmailScreen();
    type("ada@example.com");
    fireEvent.submit(input);
    expect(submit.disabled).toBe(true);
    expect(submit.textContent).toBe("Submitting");
    await screen.findByRole("heading", { name: "Enter confirmation code" });
    expect(app.server.sentTo).toEqual(["ada@example.com"]);
  });
});
