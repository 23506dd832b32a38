import {
  type Client,
  type LoginResult,
  linkEmail,
  linkPhone,
  loginWithEmailCode,
  loginWithSmsCode,
  sendEmailCode,
  sendSmsCode,
  transferAccount,
  type User,
  updateEmail,
  updatePhone,
} from "@symbolon/core";
import type { AccountFlowKind, CodeChannel } from "../provider/createModalController";

/** What a submitted code did: a login (with its result), or a saved link or update (the user now). */
export type CodeOutcome = { type: "login"; result: LoginResult } | { type: "saved"; user: User };

/** Sends a code by email or text message (the same call for login, link and update). */
export async function sendCode(client: Client, channel: CodeChannel, to: string): Promise<void> {
  if (channel === "email") await sendEmailCode(client, { email: to });
  else await sendSmsCode(client, { phoneNumber: to });
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
        ? await loginWithEmailCode(client, { code, email: to })
        : await loginWithSmsCode(client, { code, phoneNumber: to });
    return { type: "login", result };
  }
  let answer: unknown;
  if (flow === "link") {
    answer =
      channel === "email"
        ? await linkEmail(client, { email: to, code })
        : await linkPhone(client, { phoneNumber: to, code });
  } else {
    answer =
      channel === "email"
        ? await updateEmail(client, { newAddress: to, code })
        : await updatePhone(client, { newPhoneNumber: to, code });
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
  const answer = await transferAccount(client, { accountType, nonce, subject });
  return currentUser(client, answer);
}
