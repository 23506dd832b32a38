import type { Client } from "@symbolon/core";
import type { ModalController } from "../provider/createModalController";
import { type AccountActions, createAccountActions } from "./flows/createAccountActions";
import { type CodeActions, createCodeActions } from "./flows/createCodeActions";
import type { FarcasterActions } from "./flows/createFarcasterFlow";
import { createLoginMethodsActions, type LoginMethodsActions } from "./flows/createLoginMethodsActions";
import { createTelegramFlow, type TelegramActions } from "./flows/createTelegramFlow";
import { createTransferActions, type TransferActions } from "./flows/createTransferActions";
import { createWalletActions, type WalletScreenActions } from "./flows/createWalletActions";
import type { PasskeyLoginActions } from "./flows/passkeyLogin";

/**
 * What the sign-in screens call, by flow: each screen gets its own flow's. Built once the modal's code
 * loads, as they chain steps of several flows; screens that only call their own flow call it in
 * `context.flows`.
 */
export interface ScreenActions {
  account: AccountActions;
  methods: LoginMethodsActions;
  code: CodeActions;
  telegram: TelegramActions;
  farcaster: FarcasterActions;
  passkey: PasskeyLoginActions;
  wallets: WalletScreenActions;
  transfer: TransferActions;
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
    telegram,
    farcaster: { succeed: finish.succeed, accountSaved: (user) => finish.saved(user), refuse },
    passkey: { succeed: finish.succeed, refuse },
    wallets,
    transfer: createTransferActions(core, finish, refuse),
  };
  built.set(controller, actions);
  return actions;
}
