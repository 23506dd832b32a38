import type { Client } from "../client/createClient.ts";
import { linkOAuth } from "./linkOAuth.ts";
import type { CrossAppAccountParameters } from "./loginWithCrossAppAccount.ts";

/** Links the user's account of app `appId` to the signed-in user (provider `privy:{appId}`). */
export function linkCrossAppAccount(client: Client, { appId, display = "popup" }: CrossAppAccountParameters) {
  return linkOAuth(client, { provider: `privy:${appId}`, display });
}
