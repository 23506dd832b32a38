import type { ExposedOf, InstanceOf } from "./core/defineFlow";
import { ACCOUNT_FLOW } from "./flows/createAccountFlow";
import { CODE_FLOW } from "./flows/createCodeFlow";
import { CONFIRM_FLOW } from "./flows/createConfirmFlow";
import { DELEGATION_FLOW } from "./flows/createDelegationFlow";
import { EXPORT_FLOW } from "./flows/createExportFlow";
import { FARCASTER_FLOW } from "./flows/createFarcasterFlow";
import { FARCASTER_SIGNER_FLOW } from "./flows/createFarcasterSignerFlow";
import { LOGIN_METHODS_FLOW } from "./flows/createLoginMethodsFlow";
import { OAUTH_FLOW } from "./flows/createOAuthFlow";
import { PASSKEYS_FLOW } from "./flows/createPasskeysFlow";
import { REFUSAL_FLOW } from "./flows/createRefusalFlow";
import { WALLET_FLOW } from "./flows/createWalletFlow";
import { MFA_FLOW } from "./flows/followMfa";
import { SUCCESS_FLOW } from "./flows/showSuccess";
import type { LoginScreenContext, ScreenContext } from "./screenContext";
import type { ScreenRegistry } from "./screenEntry";

/**
 * Every flow of the modal, by name: the controller creates them in this order (a flow another one
 * uses, before it) and offers the hooks what each exposes; the modals show the screens each declares.
 * A new flow is its file in `flows/` (with its module of screens beside it) and one line here.
 */
export const FLOWS = {
  account: ACCOUNT_FLOW,
  code: CODE_FLOW,
  refusal: REFUSAL_FLOW,
  login: LOGIN_METHODS_FLOW,
  oauth: OAUTH_FLOW,
  farcaster: FARCASTER_FLOW,
  wallets: WALLET_FLOW,
  confirm: CONFIRM_FLOW,
  export: EXPORT_FLOW,
  delegation: DELEGATION_FLOW,
  signer: FARCASTER_SIGNER_FLOW,
  passkeys: PASSKEYS_FLOW,
  mfa: MFA_FLOW,
  success: SUCCESS_FLOW,
};

type Flows = typeof FLOWS;
type UnionToIntersection<Union> = (Union extends unknown ? (member: Union) => void : never) extends (
  all: infer Intersection,
) => void
  ? Intersection
  : never;

/** The flows the controller creates (those that keep something: not MFA's, nor the success screen's), by name. */
export type ModalFlows = {
  [Name in keyof Flows as InstanceOf<Flows[Name]> extends object ? Name : never]: InstanceOf<Flows[Name]>;
};

/** What the flows offer the hooks (each flow's `exposes`), on the controller. */
export type FlowsApi = UnionToIntersection<ExposedOf<Flows[keyof Flows]>>;

const walletFlows: ReadonlySet<string> = new Set(
  Object.values(FLOWS).flatMap(({ screens }) => screens?.walletFlow ?? []),
);

/** Whether the open flow `flow` shows in the wallet modal (else in the login modal). */
export const inWalletModal = (flow: string | null) => flow !== null && walletFlows.has(flow);

/** The screens of the flows one modal shows: each flow's module of screens (a chunk each), loaded together. */
function loadScreens<Context>(wallet: boolean): Promise<ScreenRegistry<Context>> {
  const modules = Object.values(FLOWS).flatMap(({ screens }) =>
    screens && (screens.walletFlow !== undefined) === wallet ? [screens.load()] : [],
  );
  // Each module's entries are typed for its flow's screens; together they are the modal's registry.
  return Promise.all(modules).then((loaded) => Object.assign({}, ...loaded.map((module) => module.default)));
}

/** The login modal's screens: those of every flow but the wallet modal's. */
export const loadLoginScreens = () => loadScreens<LoginScreenContext>(false);

/** The wallet modal's screens. */
export const loadWalletScreens = () => loadScreens<ScreenContext>(true);
