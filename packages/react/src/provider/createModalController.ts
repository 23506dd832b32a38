import type { Client } from "@symbolon/core";
import {
  createModalCore,
  type ModalCore,
  type ModalLayer,
  type NoScreen,
} from "../modal/core/createModalCore";
import type { ModalScreen } from "../modal/core/ModalScreen";
import { type AccountFlow, createAccountFlow } from "../modal/flows/createAccountFlow";
import { type CodeFlow, createCodeFlow } from "../modal/flows/createCodeFlow";
import { type ConfirmFlow, createConfirmFlow } from "../modal/flows/createConfirmFlow";
import { createExportFlow, type ExportFlow } from "../modal/flows/createExportFlow";
import { createFarcasterFlow, type FarcasterFlow } from "../modal/flows/createFarcasterFlow";
import {
  createFarcasterSignerFlow,
  type FarcasterSignerFlow,
} from "../modal/flows/createFarcasterSignerFlow";
import { createLoginMethodsFlow, type LoginMethodsFlow } from "../modal/flows/createLoginMethodsFlow";
import { createOAuthFlow, type OAuthFlow } from "../modal/flows/createOAuthFlow";
import { createPasskeysFlow, type PasskeysFlow } from "../modal/flows/createPasskeysFlow";
import { createRefusalFlow, type RefusalFlow } from "../modal/flows/createRefusalFlow";
import { createWalletFlow, type WalletFlow } from "../modal/flows/createWalletFlow";
import { followMfa } from "../modal/flows/followMfa";

export type { WalletFlowKind } from "../modal/flows/createWalletFlow";
export type { AccountKind } from "../modal/flows/signInTypes";

/**
 * Each flow as it is before the modal's code loads: what opens it, what it keeps, how it reports.
 * What its screens call is built with them (`screenActionsOf`).
 */
export interface ModalFlows {
  account: AccountFlow;
  login: LoginMethodsFlow;
  code: CodeFlow;
  oauth: OAuthFlow;
  farcaster: FarcasterFlow;
  wallets: WalletFlow;
  refusal: RefusalFlow;
  confirm: ConfirmFlow;
  export: ExportFlow;
  signer: FarcasterSignerFlow;
  passkeys: PasskeysFlow;
}

type KeysOfUnion<T> = T extends unknown ? keyof T : never;
/** Each member of `Union`, with the fields only other members have as `undefined`. */
type Readable<Union, Fields extends PropertyKey = KeysOfUnion<Union>> = Union extends unknown
  ? Union & { [Field in Exclude<Fields, keyof Union>]?: undefined }
  : never;
/**
 * The modal's state as readers outside the modal (the hooks) see it: any screen's field can be read,
 * `undefined` where the screen on show has none.
 */
export type ModalSnapshot = ModalLayer & Readable<ModalScreen | NoScreen>;

/**
 * The modal for the provider and the hooks: its state, close, and what starts each flow and reports
 * how it ended (each from its own flow). `core` and `flows` are for the modal's own screens.
 */
export interface ModalController
  extends Pick<ModalCore, "subscribe" | "close" | "destroy">,
    Pick<AccountFlow, "onOutcome">,
    LoginMethodsFlow,
    Pick<CodeFlow, "openLink" | "openUpdate">,
    Pick<WalletFlow, "openLinkWallet" | "openConnectWallet" | "openConnectOrCreate" | "onWalletOutcome">,
    FarcasterFlow,
    Pick<OAuthFlow, "openLinkOAuth" | "handleOAuthReturn">,
    Pick<RefusalFlow, "offerRefusal">,
    Pick<FarcasterSignerFlow, "requestFarcasterSigner">,
    Pick<ConfirmFlow, "confirm" | "resolveConfirmation">,
    ExportFlow,
    Pick<PasskeysFlow, "openPasskeys"> {
  getState(): ModalSnapshot;
  core: ModalCore;
  flows: ModalFlows;
}

/** Creates the modal for one client: the core and every flow over it. */
export function createModalController(client: Client): ModalController {
  const core = createModalCore();
  const account = createAccountFlow(core, client);
  const code = createCodeFlow(core, client, account);
  const refusal = createRefusalFlow(core, account);
  const flows: ModalFlows = {
    account,
    login: createLoginMethodsFlow(client, account, code),
    code,
    oauth: createOAuthFlow(core, client, account, refusal.refuse),
    farcaster: createFarcasterFlow(client, account),
    wallets: createWalletFlow(core, client, account),
    refusal,
    confirm: createConfirmFlow(core),
    export: createExportFlow(core),
    signer: createFarcasterSignerFlow(core),
    passkeys: createPasskeysFlow(core, client),
  };
  followMfa(core, client);
  const { login, oauth, farcaster, wallets, confirm, signer, passkeys } = flows;
  return {
    getState: core.getState,
    subscribe: core.subscribe,
    close: core.close,
    destroy: core.destroy,
    core,
    flows,
    onOutcome: account.onOutcome,
    login: login.login,
    openLink: code.openLink,
    openUpdate: code.openUpdate,
    openLinkWallet: wallets.openLinkWallet,
    openConnectWallet: wallets.openConnectWallet,
    openConnectOrCreate: wallets.openConnectOrCreate,
    onWalletOutcome: wallets.onWalletOutcome,
    openLinkFarcaster: farcaster.openLinkFarcaster,
    openLinkOAuth: oauth.openLinkOAuth,
    handleOAuthReturn: oauth.handleOAuthReturn,
    offerRefusal: refusal.offerRefusal,
    requestFarcasterSigner: signer.requestFarcasterSigner,
    confirm: confirm.confirm,
    resolveConfirmation: confirm.resolveConfirmation,
    openExport: flows.export.openExport,
    openPasskeys: passkeys.openPasskeys,
  };
}
