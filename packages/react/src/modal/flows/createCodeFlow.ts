import type { Client } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { ACCOUNT_FLOW, type AccountFlow, isSignedIn, type SignInSession } from "./createAccountFlow";
import type { LoginMethodsScreenState } from "./createLoginMethodsFlow";
import { type AccountKind, type CodeTarget, isSignInOrConnect, type SignInFlowKind } from "./signInTypes";

/**
 * How long a sent code stays waiting for the person after they close the modal: reopening within
 * this time shows the code screen again instead of asking for the address (and another message).
 */
export const PENDING_CODE_KEEP_MS = 5 * 60_000;

/** Where the address or number was typed: where "Change email" / "Change number" goes back to. */
export type CodeEntry = "methods" | "email" | "phone";

/** The code screens: the address or number to send a code to (filled in again after a change), then the code. */
export type CodeScreenState =
  | { flow: SignInFlowKind; screen: "email"; email: string | null }
  | { flow: SignInFlowKind; screen: "phone"; phoneNumber: string | null }
  | ({
      flow: SignInFlowKind;
      screen: "code";
      entry: CodeEntry;
      /** When a new code may be asked for (epoch ms), if it must wait. */
      resendWaitUntil: number | null;
    } & CodeTarget);

/** A code sent: where, from which entry screen, when. */
export interface SentCode {
  target: CodeTarget;
  entry: CodeEntry;
  at: number;
}

/** What the code screens leave for the next steps and the next opening. */
export interface CodeMemory {
  /** The code last sent: the one the code screen on show is for. */
  lastSent: SentCode | null;
  /** When a new code may be asked for `to` (kept across a close and reopen so reopening does not skip it). */
  resendWait: { to: string; until: number } | null;
}

/** The email and SMS code flows: link and update open on them; the login screen leads to them. */
export interface CodeFlow {
  /** Open the link flow for an email or a phone; needs a signed-in user (spec §5). */
  openLink(kind: AccountKind): void;
  /** Open the update flow for the user's email or phone. */
  openUpdate(kind: AccountKind): void;
  /** A login opening: the code screen again when its code was sent less than PENDING_CODE_KEEP_MS ago. */
  resume(session: SignInSession): CodeScreenState | null;
  /** The code screen of `sent`, with its resend wait. */
  codeScreen(flow: SignInFlowKind, sent: SentCode): CodeScreenState;
  /** The screen where the address or number is typed, filled in with the one the code last went to. */
  entryScreen(
    flow: SignInFlowKind,
    entry: CodeEntry,
    session: SignInSession,
  ): CodeScreenState | LoginMethodsScreenState;
  memory: CodeMemory;
}

/** Creates the code flows over one modal core; their screens' steps are `createCodeActions`. */
export function createCodeFlow(core: ModalCore, client: Client, account: AccountFlow): CodeFlow {
  const memory: CodeMemory = { lastSent: null, resendWait: null };
  // The login code kept after a close.
  let pending: SentCode | null = null;

  // A login closed on its code screen keeps the code for a while; a sign-in that ended anywhere else
  // (signed in, refused, another way chosen) forgets it.
  core.onClose(() => {
    const closedOn = core.current();
    if (closedOn === null || !isSignInOrConnect(closedOn.flow)) return;
    pending = closedOn.screen === "code" && closedOn.flow === "login" ? memory.lastSent : null;
  });

  const codeScreen = (flow: SignInFlowKind, { target, entry }: SentCode): CodeScreenState => {
    const to = target.channel === "email" ? target.email : target.phoneNumber;
    const { resendWait } = memory;
    return {
      flow,
      screen: "code",
      entry,
      resendWaitUntil: resendWait?.to === to ? resendWait.until : null,
      ...target,
    };
  };
  const entryScreen = (
    flow: SignInFlowKind,
    entry: CodeEntry,
    { email, phoneNumber }: SignInSession,
  ): CodeScreenState | LoginMethodsScreenState => {
    if (entry === "email") return { flow, screen: "email", email };
    if (entry === "phone") return { flow, screen: "phone", phoneNumber };
    return { flow, screen: "methods", email, phoneNumber };
  };
  const openAccount = (flow: "link" | "update", kind: AccountKind) => {
    if (!isSignedIn(client)) return;
    account.open({
      flow,
      kind,
      first: (session) => entryScreen(flow, kind === "email" ? "email" : "phone", session),
    });
  };

  return {
    openLink: (kind) => openAccount("link", kind),
    openUpdate: (kind) => openAccount("update", kind),
    resume(session) {
      if (pending === null || Date.now() - pending.at >= PENDING_CODE_KEEP_MS) return null;
      const { target } = pending;
      session.channel = target.channel;
      if (target.channel === "email") session.email = target.email;
      else session.phoneNumber = target.phoneNumber;
      memory.lastSent = pending;
      return codeScreen(session.flow, pending);
    },
    codeScreen,
    entryScreen,
    memory,
  };
}

export const CODE_FLOW = defineFlow({
  create: ({ core, client, use }) => createCodeFlow(core, client, use(ACCOUNT_FLOW)),
  exposes: ["openLink", "openUpdate"],
  screens: loginModalScreens<CodeScreenState>(() => import("./codeScreens")),
});
