import { type AccountFlowCallbacks, useAccountFlow } from "./useAccountFlow";

/** Updates the user's email or phone through the modal's update flow (spec §2 update screens). */
export function useUpdateAccount(options: AccountFlowCallbacks = {}) {
  const open = useAccountFlow("useUpdateAccount", "update", options);
  return { updateEmail: () => open("email"), updatePhone: () => open("phone") };
}

/** Updates the user's email through the modal (spec client `useUpdateEmail`). */
export function useUpdateEmail(options: AccountFlowCallbacks = {}) {
  const open = useAccountFlow("useUpdateEmail", "update", options);
  return { updateEmail: () => open("email") };
}

/** Updates the user's phone number through the modal. */
export function useUpdatePhone(options: AccountFlowCallbacks = {}) {
  const open = useAccountFlow("useUpdatePhone", "update", options);
  return { updatePhone: () => open("phone") };
}
