// Signs the visitor in to the provider app on this origin with an emailed code (packages/core).

import { type Client, initialize, loginWithEmailCode, sendEmailCode } from "@symbolon/core";
import { button, el, errorLine, show } from "./ui.ts";

/** Resolves once the provider app has a signed-in user (asking for an email code if needed). */
export async function ensureSignedIn(client: Client, appName: string, intro: Node[]): Promise<void> {
  await initialize(client);
  if (client.store.getState().user !== null) return;
  await new Promise<void>((resolve) => {
    const email = el("input", { type: "email", autocomplete: "email", id: "email" });
    const code = el("input", { inputmode: "numeric", autocomplete: "one-time-code", id: "code" });
    const problem = el("div");
    const fail = (error: unknown) => {
      problem.replaceChildren(errorLine(error instanceof Error ? error.message : String(error)));
    };
    const codeStep = [
      el("label", {}, "Code", code),
      button("Sign in", async () => {
        try {
          await loginWithEmailCode(client, { code: code.value });
          resolve();
        } catch (error) {
          fail(error);
        }
      }),
    ];
    show(
      ...intro,
      el("p", {}, `Sign in to ${appName} to continue.`),
      el("label", {}, "Email", email),
      button("Send code", async () => {
        try {
          await sendEmailCode(client, { email: email.value });
          problem.replaceChildren();
          show(...intro, el("p", {}, `Enter the code sent to ${email.value}.`), ...codeStep, problem);
        } catch (error) {
          fail(error);
        }
      }),
      problem,
    );
  });
}
