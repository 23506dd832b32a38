import {
  type Client,
  type LoginResult,
  linkEmail,
  linkPhone,
  loginWithEmailCode,
  loginWithSmsCode,
  type OAuthUserInfo,
  sendEmailCode,
  sendSmsCode,
  type TelegramProof,
  transferAccount,
  transferTelegram,
  type User,
  updateEmail,
  updatePhone,
} from "@symbolon/core";
import type { AccountFlowKind, CodeChannel } from "./flows/signInTypes";

/** What a submitted code did: a login (with its result), or a saved link or update (the user now). */
export type CodeOutcome = { type: "login"; result: LoginResult } | { type: "saved"; user: User };

/** Sends a code by email or text message (the same call for login, link and update). */
export async function sendCode(client: Client, channel: CodeChannel, to: string): Promise<void> {
  if (channel === "email") await sendEmailCode(client, { email: to });
  else await sendSmsCode(client, { phoneNumber: to });
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
  const change =
    flow === "link"
      ? channel === "email"
        ? await linkEmail(client, { email: to, code })
        : await linkPhone(client, { phoneNumber: to, code })
      : channel === "email"
        ? await updateEmail(client, { newAddress: to, code })
        : await updatePhone(client, { newPhoneNumber: to, code });
  return { type: "saved", user: change.user };
}

/** Moves an account that belongs to another user to this one, with the nonce of the refusal. */
export async function transfer(
  client: Client,
  accountType: string,
  nonce: string,
  subject: string,
  userInfo?: OAuthUserInfo | null,
): Promise<User> {
  return (await transferAccount(client, { accountType, nonce, subject, ...(userInfo ? { userInfo } : {}) }))
    .user;
}

/** Moves a Telegram account to this one: the refusal's nonce and the proof the link sent. */
export async function transferTelegramAccount(
  client: Client,
  nonce: string,
  proof: TelegramProof | null,
): Promise<User> {
  if (!proof) throw new Error("The Telegram sign-in to transfer is missing; link it again.");
  return (await transferTelegram(client, { nonce, proof })).user;
}
