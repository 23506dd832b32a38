import { isProviderRpcError } from "@symbolon/core";

/**
 * The person refused in the confirmation (EIP-1193 4001): not a failure to show, the form just
 * comes back as it was. The hook has already reported the 4001 to its `onError`.
 */
export function isUserRejection(error: unknown): boolean {
  return isProviderRpcError(error) && error.code === 4001;
}
