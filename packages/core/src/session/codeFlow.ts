import type { Client, CodeFlowStatus } from "../client/createClient.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";

/** Which code flow: email (`state.emailFlow`, keyed by address) or SMS (`state.smsFlow`, by number). */
export type CodeChannel = "email" | "sms";

/**
 * Moves the email or SMS code flow (spec §4) to `status` for `subject` (the address or number),
 * with `error` (any thrown value, kept as a SymbolonError) when it failed.
 */
export function setCodeFlow(
  client: Client,
  channel: CodeChannel,
  status: CodeFlowStatus,
  subject: string | null,
  error: unknown = null,
): void {
  const kept = error === null ? null : asSymbolonError(error);
  if (channel === "email") client.store.setState({ emailFlow: { status, email: subject, error: kept } });
  else client.store.setState({ smsFlow: { status, phoneNumber: subject, error: kept } });
}

/**
 * Runs one step of a code flow: `pending` while `step` runs, then `settled`, or `error` (keeping
 * the subject so the user can retry) and rethrows.
 */
export async function runCodeStep<T>(
  client: Client,
  channel: CodeChannel,
  subject: string,
  pending: CodeFlowStatus,
  settled: CodeFlowStatus,
  step: () => Promise<T>,
): Promise<T> {
  setCodeFlow(client, channel, pending, subject);
  try {
    const result = await step();
    setCodeFlow(client, channel, settled, subject);
    return result;
  } catch (e) {
    setCodeFlow(client, channel, "error", subject, e);
    throw e;
  }
}
