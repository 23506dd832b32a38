import { type AccountFlowCallbacks, useAccountFlow } from "./useAccountFlow";

/**
 * Links an email or phone through the modal (spec client `useLinkAccount`): the modal asks for the
 * address or number, sends a code and links it. Callbacks report the outcome when it closes.
 */
export function useLinkAccount(options: AccountFlowCallbacks = {}) {
  const open = useAccountFlow("useLinkAccount", "link", options);
  return { linkEmail: () => open("email"), linkPhone: () => open("phone") };
}
