import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { LinkedAccount, User } from "../generated/protocol.ts";
import { requireUser } from "./accountRequest.ts";

/** Spec §9: passkeys up to 5 per user; every other account type 1. */
const MAX_PER_TYPE: Record<string, number> = { passkey: 5 };

/**
 * Spec §5 checks before a link: the user is signed in ('User must be authenticated before linking
 * an account.') and has fewer accounts of `type` than allowed ('User already has an account of type
 * {type} linked.'). ("The guest flow cannot link" means there is no link form of guest login.)
 */
export function requireLinkable(client: Client, type: LinkedAccount["type"]): User {
  const user = requireUser(client);
  const count = user.linked_accounts.filter((a) => a.type === type).length;
  if (count >= (MAX_PER_TYPE[type] ?? 1)) {
    throw new ClientError("invalid_input", `User already has an account of type ${type} linked.`);
  }
  return user;
}
