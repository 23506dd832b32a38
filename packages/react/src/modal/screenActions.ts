import type { Client } from "@symbolon/core";
import type { ModalController } from "../provider/createModalController";
import { type AccountActions, createAccountActions } from "./flows/createAccountActions";
import { type CodeActions, createCodeActions } from "./flows/createCodeActions";
import type { ConfirmActions } from "./flows/createConfirmFlow";
import type { FarcasterActions } from "./flows/createFarcasterFlow";
import type { FarcasterSignerActions } from "./flows/createFarcasterSignerFlow";
import { createLoginMethodsActions, type LoginMethodsActions } from "./flows/createLoginMethodsActions";
import type { OAuthActions } from "./flows/createOAuthFlow";
import type { PasskeysActions } from "./flows/createPasskeysFlow";
import { createTelegramFlow, type TelegramActions } from "./flows/createTelegramFlow";
import { createTransferActions, type TransferActions } from "./flows/createTransferActions";
import { createWalletActions, type WalletScreenActions } from "./flows/createWalletActions";
import type { PasskeyLoginActions } from "./flows/passkeyLogin";

/** What the screens call, by flow: each screen gets its own flow's. */
export interface ScreenActions {
  account: AccountActions;
  methods: LoginMethodsActions;
  code: CodeActions;
  oauth: OAuthActions;
  telegram: TelegramActions;
  farcaster: FarcasterActions;
  passkey: PasskeyLoginActions;
  wallets: WalletScreenActions;
  transfer: TransferActions;
  confirm: ConfirmActions;
  signer: FarcasterSignerActions;
  passkeys: PasskeysActions;
}

const built = new WeakMap<ModalController, ScreenActions>();

/**
 * The screens' actions of `controller`, built once when the modal's code loads: they stay out of the
 * provider's initial bundle.
 */
export function screenActionsOf(controller: ModalController, client: Client): ScreenActions {
  const known = built.get(controller);
  if (known) return known;
  const { core, flows } = controller;
  const { refuse } = flows.refusal;
  const finish = createAccountActions(core, flows.account);
  const code = createCodeActions(core, flows.code, flows.account, finish, refuse);
  const wallets = createWalletActions(core, client, flows.wallets, flows.account, finish, refuse);
  const telegram = createTelegramFlow(core, client, flows.account, finish, refuse);
  const actions: ScreenActions = {
    account: finish,
    methods: createLoginMethodsActions(core, flows.account, { code, oauth: flows.oauth, telegram, wallets }),
    code,
    oauth: flows.oauth,
    telegram,
    farcaster: { succeed: finish.succeed, accountSaved: (user) => finish.saved(user), refuse },
    passkey: { succeed: finish.succeed, refuse },
    wallets,
    transfer: createTransferActions(core, finish, refuse),
    confirm: flows.confirm,
    signer: flows.signer,
    passkeys: flows.passkeys,
  };
  built.set(controller, actions);
  return actions;
}
