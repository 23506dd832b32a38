import type { Client, LoginResult, User } from "@symbolon/core";
import * as core from "@symbolon/core";
import type { AccountFlowKind, CodeChannel } from "../provider/createModalController";

/**
 * The core actions of the SMS, link, update and transfer flows. Read off the core module so this
 * file builds against a core that does not have them yet; a missing one fails when called.
 */
interface AccountActions {
  sendSmsCode(client: Client, parameters: { phoneNumber: string }): Promise<unknown>;
  loginWithSmsCode(client: Client, parameters: { code: string; phoneNumber?: string }): Promise<LoginResult>;
  linkEmail(client: Client, parameters: { email: string; code: string }): Promise<unknown>;
  linkPhone(client: Client, parameters: { phoneNumber: string; code: string }): Promise<unknown>;
  updateEmail(client: Client, parameters: { newAddress: string; code: string }): Promise<unknown>;
  updatePhone(client: Client, parameters: { newPhoneNumber: string; code: string }): Promise<unknown>;
  transferAccount(
    client: Client,
    parameters: { accountType: "email" | "phone"; nonce: string; subject: string },
  ): Promise<unknown>;
}

/**
 * Written as `(core as Actions).name` at each use, so the bundler sees a plain named import (a
 * variable holding the namespace would pull all of core into the bundle).
 */
type Actions = Partial<AccountActions>;

function need<K extends keyof AccountActions>(
  name: K,
  action: AccountActions[K] | undefined,
): AccountActions[K] {
  if (typeof action !== "function")
    throw new core.ClientError("invalid_input", `${name} is not available in this build.`);
  return action;
}

/** What a submitted code did: a login (with its result), or a saved link or update (the user now). */
export type CodeOutcome = { type: "login"; result: LoginResult } | { type: "saved"; user: User };

/** Sends a code by email or text message (the same call for login, link and update). */
export async function sendCode(client: Client, channel: CodeChannel, to: string): Promise<void> {
  if (channel === "email") await core.sendEmailCode(client, { email: to });
  else await need("sendSmsCode", (core as unknown as Actions).sendSmsCode)(client, { phoneNumber: to });
}

/** The user as the store has it after a link, update or transfer (the action's answer otherwise). */
function currentUser(client: Client, answer: unknown): User {
  const user = client.store.getState().user;
  if (user) return user;
  const value = answer as { user?: User } | User;
  return ("user" in value && value.user ? value.user : value) as User;
}

/** Submits the code of a login, link or update flow by email or text message. */
export async function submitCode(
  client: Client,
  flow: AccountFlowKind,
  channel: CodeChannel,
  to: string,
  code: string,
): Promise<CodeOutcome> {
  if (flow === "login") {
    const result =
      channel === "email"
        ? await core.loginWithEmailCode(client, { code, email: to })
        : await need("loginWithSmsCode", (core as unknown as Actions).loginWithSmsCode)(client, {
            code,
            phoneNumber: to,
          });
    return { type: "login", result };
  }
  let answer: unknown;
  if (flow === "link") {
    answer =
      channel === "email"
        ? await need("linkEmail", (core as unknown as Actions).linkEmail)(client, { email: to, code })
        : await need("linkPhone", (core as unknown as Actions).linkPhone)(client, { phoneNumber: to, code });
  } else {
    answer =
      channel === "email"
        ? await need("updateEmail", (core as unknown as Actions).updateEmail)(client, {
            newAddress: to,
            code,
          })
        : await need("updatePhone", (core as unknown as Actions).updatePhone)(client, {
            newPhoneNumber: to,
            code,
          });
  }
  return { type: "saved", user: currentUser(client, answer) };
}

/** Moves an account that belongs to another user to this one, with the nonce of the refusal. */
export async function transfer(
  client: Client,
  accountType: "email" | "phone",
  nonce: string,
  subject: string,
): Promise<User> {
  const answer = await need("transferAccount", (core as unknown as Actions).transferAccount)(client, {
    accountType,
    nonce,
    subject,
  });
  return currentUser(client, answer);
}
