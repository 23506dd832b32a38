import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { User } from "../generated/protocol.ts";
import { requireUser } from "./accountRequest.ts";

/** Spec §5 messages when the update flow opens without an account to update ("an phone" is the spec's). */
export const UPDATE_REQUIRES_MESSAGE = {
  email: "User is required to have an email address to update it.",
  phone: "User is required to have an phone number to update it.",
} as const;

/**
 * Spec §5 check before an update flow starts (the modal's update screens): the user is signed in
 * and has an account of `kind`; else ClientError('invalid_input', UPDATE_REQUIRES_MESSAGE[kind]).
 */
export function requireUpdatable(client: Client, kind: "email" | "phone"): User {
  const user = requireUser(client);
  if (!user.linked_accounts.some((a) => a.type === kind)) {
    throw new ClientError("invalid_input", UPDATE_REQUIRES_MESSAGE[kind]);
  }
  return user;
}
