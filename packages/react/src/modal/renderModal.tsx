import {
  type AppConfigResponse,
  type Client,
  type ClientOptions,
  createClient,
  createMemoryStorage,
  MODAL_OPEN_DELAY_MS,
  type User,
} from "@symbolon/core";
import { act, render, screen } from "@testing-library/react";
import { vi } from "vitest";
import { createModalController } from "../provider/createModalController";
import type { PrivyConfig } from "../provider/PrivyConfig";
import { PrivyContext } from "../provider/PrivyContext";
import { TEST_APP_ID } from "../test/startTestServer";
import type { ModalOutcome } from "./flows/createAccountFlow";
import LoginModal from "./LoginModal";
import { loadLoginScreens } from "./modalFlows";
import { screenActionsOf } from "./screenActions";

/** A signed-in user with an email and a phone (server form). */
export const USER: User = {
  id: "did:privy:1",
  created_at: 0,
  linked_accounts: [
    {
      type: "email",
      address: "ada@example.com",
      verified_at: 0,
      first_verified_at: 0,
      latest_verified_at: 0,
    },
    {
      type: "phone",
      phoneNumber: "+12015550123",
      verified_at: 0,
      first_verified_at: 0,
      latest_verified_at: 0,
    },
  ] as unknown as User["linked_accounts"],
  mfa_methods: [],
  has_accepted_terms: true,
  is_guest: false,
};

/** Options of {@link renderModal}. */
export interface RenderModalOptions {
  appConfig?: Partial<AppConfigResponse>;
  user?: User | null;
  config?: PrivyConfig;
  /** Client options over the defaults (e.g. `apiUrl` of a scripted server, wallet directory host). */
  clientOptions?: Partial<ClientOptions>;
}

/**
 * Renders the login modal alone under a provider context with a real client (no server unless
 * `clientOptions.apiUrl` names one: the tests mock `./accountActions` and `./checkPhone`) and opens it
 * with `open(controller)`. `actions` are what its screens call.
 */
export async function renderModal(
  open: (controller: ReturnType<typeof createModalController>, client: Client) => void,
  options: RenderModalOptions = {},
) {
  const client = createClient({
    appId: TEST_APP_ID,
    apiUrl: "http://127.0.0.1:1",
    storage: createMemoryStorage(),
    broadcast: false,
    ...options.clientOptions,
  });
  const user = options.user === undefined ? null : options.user;
  client.store.setState({
    ready: true,
    authenticated: user !== null,
    user,
    appConfig: { name: "Acme", ...options.appConfig } as AppConfigResponse,
  });
  const controller = createModalController(client);
  const outcomes: ModalOutcome[] = [];
  controller.onOutcome((outcome) => outcomes.push(outcome), "all");
  // As the provider does: the modal with the screens of its flows.
  const screens = await loadLoginScreens();
  render(
    <PrivyContext.Provider value={{ client, controller, config: options.config ?? {} }}>
      <button type="button">Trigger</button>
      <LoginModal screens={screens} />
    </PrivyContext.Provider>,
  );
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    open(controller, client);
    await act(async () => vi.advanceTimersByTime(MODAL_OPEN_DELAY_MS));
  } finally {
    vi.useRealTimers();
  }
  const dialog = await screen.findByRole("dialog");
  return { client, controller, actions: screenActionsOf(controller, client), outcomes, dialog };
}
