import type { User } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import type { AccountActions } from "./createAccountActions";
import type { AddedAccount } from "./createAccountFlow";
import type { TransferOffer } from "./toRefusal";

/** What the transfer screen calls. */
export interface TransferActions {
  /** The account was moved to this user (now `user`): success, then close. */
  transferred(user: User): void;
  refuse(error: unknown): boolean;
}

/** Titles name a moved Farcaster or Telegram account ("Farcaster account added"). */
const movedAccount = (offer: TransferOffer): AddedAccount | null =>
  offer.accountType === "farcaster" || offer.accountType === "telegram" ? offer.accountType : null;

/** Creates the transfer screen's steps over one modal core. */
export function createTransferActions(
  core: ModalCore,
  finish: AccountActions,
  refuse: (error: unknown) => boolean,
): TransferActions {
  return {
    transferred(user) {
      const current = core.current();
      finish.saved(user, current?.screen === "transfer" ? movedAccount(current.refusal.transfer) : null);
    },
    refuse,
  };
}
