import type { LoginResult, User } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import type { AccountFlow, AddedAccount, SignInSession } from "./createAccountFlow";
import { showSuccess } from "./showSuccess";
import {
  type AccountFlowKind,
  type AccountKind,
  type CodeChannel,
  isAccountFlow,
  type WayIn,
} from "./signInTypes";

/** What the sign-in screens call to finish a login, a link or an update (loaded with the screens). */
export interface AccountActions {
  /** A code went to `to`: the entry forms start from it, and a login reports it. */
  codeSent(channel: CodeChannel, to: string): void;
  /** A link of a wallet or a Farcaster account started (its success title says so). */
  adding(account: AddedAccount): void;
  /**
   * The login went through: success, then close. A login into an app whose terms the user has not
   * accepted shows the terms screen first.
   */
  succeed(result: LoginResult): void;
  /** A link or update went through (`moved`: the account a transfer moved): success, then close. */
  saved(user: User, moved?: AddedAccount | null): void;
  /** The terms were accepted (the user is now `user`): success, then close. */
  termsAccepted(user: User): void;
}

const SUCCESS_TITLES: Record<AccountFlowKind, Record<AccountKind, string>> = {
  login: { email: "You're logged in", phone: "You're logged in" },
  link: { email: "Email added", phone: "Phone number added" },
  update: { email: "Email updated", phone: "Phone number updated" },
};

const ADDED_TITLES: Record<AddedAccount, string> = {
  wallet: "Wallet added",
  farcaster: "Farcaster account added",
  telegram: "Telegram account added",
};

/** How the session came in, as its success screen keeps it for `useLogin`. */
function wayIn({ provider, channel, email, phoneNumber }: SignInSession): WayIn {
  if (provider) return { provider };
  if (channel === "sms" && phoneNumber) return { channel, phoneNumber };
  if (channel === "email" && email) return { channel, email };
  return {};
}

/** The success screen's title: what was done, to which kind of account. */
function successTitle(session: SignInSession, moved: AddedAccount | null): string {
  const added = session.adding ?? moved;
  if (session.flow === "link" && added) return ADDED_TITLES[added];
  const kind = session.kind ?? (session.channel === "sms" ? "phone" : "email");
  return SUCCESS_TITLES[isAccountFlow(session.flow) ? session.flow : "login"][kind];
}

/** Creates the sign-in screens' finishing steps over one modal core. */
export function createAccountActions(core: ModalCore, account: AccountFlow): AccountActions {
  const finish = (result: LoginResult, moved: AddedAccount | null = null) => {
    const session = account.session();
    session.result = result;
    showSuccess(core, {
      flow: session.flow,
      screen: "success",
      title: successTitle(session, moved),
      ...wayIn(session),
    });
  };
  return {
    codeSent(channel, to) {
      const session = account.session();
      session.channel = channel;
      if (channel === "email") session.email = to;
      else session.phoneNumber = to;
    },
    adding(added) {
      account.session().adding = added;
    },
    succeed(result) {
      if (!account.waitForTerms(result)) finish(result);
    },
    saved: (user, moved = null) => finish({ user, isNewUser: false, wasAlreadyAuthenticated: true }, moved),
    termsAccepted(user) {
      const session = account.session();
      const result = session.awaitingTerms ?? { user, isNewUser: false, wasAlreadyAuthenticated: false };
      session.awaitingTerms = null;
      finish({ ...result, user });
    },
  };
}
