import type { LoginResult, User } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import type { AccountActions } from "./createAccountActions";
import type { AccountFlow } from "./createAccountFlow";
import type { CodeEntry, CodeFlow } from "./createCodeFlow";
import type { CodeChannel, CodeTarget } from "./signInTypes";

/** What the code screens call. */
export interface CodeActions {
  /** The code was sent to `to` (an address, or a number when `channel` is sms): show the code screen. */
  codeSent(to: string, channel?: CodeChannel): void;
  /** A new code may not be asked for `to` before `seconds` have passed (resend wait). */
  waitBeforeResend(to: string, seconds: number): void;
  /** Back from the code screen to where the address or number was typed (it stays filled in). */
  changeAddress(): void;
  /** Show where to type the address or number (the login screen's email or SMS choice). */
  enter(channel: CodeChannel): void;
  /** The code logged in. */
  succeed(result: LoginResult): void;
  /** The code linked or updated the account. */
  accountSaved(user: User): void;
  /** Routes a refusal with a screen of its own; false when it has none (shown in place). */
  refuse(error: unknown): boolean;
}

/** What a form that sends a code calls (the email and phone forms, also inline on the login screen). */
export type SendCodeActions = Pick<CodeActions, "codeSent" | "refuse">;

/** Creates the code screens' steps over one modal core. */
export function createCodeActions(
  core: ModalCore,
  { memory, codeScreen, entryScreen }: CodeFlow,
  account: AccountFlow,
  finish: AccountActions,
  refuse: (error: unknown) => boolean,
): CodeActions {
  return {
    codeSent(to, channel = "email") {
      const current = core.current();
      const entry: CodeEntry =
        current?.screen === "code"
          ? current.entry
          : current?.screen === "email" || current?.screen === "phone"
            ? current.screen
            : "methods";
      const target: CodeTarget = channel === "email" ? { channel, email: to } : { channel, phoneNumber: to };
      memory.lastSent = { target, entry, at: Date.now() };
      finish.codeSent(channel, to);
      core.show(codeScreen(account.session().flow, memory.lastSent));
    },
    waitBeforeResend(to, seconds) {
      memory.resendWait = { to, until: Date.now() + seconds * 1000 };
      const current = core.current();
      if (current?.screen === "code" && memory.lastSent) core.show(codeScreen(current.flow, memory.lastSent));
    },
    changeAddress() {
      const current = core.current();
      if (current?.screen === "code") core.show(entryScreen(current.flow, current.entry, account.session()));
    },
    enter(channel) {
      const session = account.session();
      core.show(entryScreen(session.flow, channel === "email" ? "email" : "phone", session));
    },
    succeed: finish.succeed,
    accountSaved: (user) => finish.saved(user),
    refuse,
  };
}
