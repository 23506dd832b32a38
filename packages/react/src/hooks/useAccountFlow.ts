import { formatUser } from "@symbolon/core";
import { useEffect, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toAccountErrorCode } from "../errors/toAccountErrorCode";
import type { AccountKind } from "../provider/createModalController";
import { usePrivyContext } from "../provider/usePrivyContext";
import { openAccountFlow } from "./openAccountFlow";

/** Callbacks of the link and update hooks. */
export interface AccountFlowCallbacks {
  /** The modal closed after the account was linked or updated; the user as it is now. */
  onSuccess?: (params: { user: ReturnType<typeof formatUser>; kind?: AccountKind }) => void;
  /** The modal closed without it (`exited_link_flow` / `exited_update_flow`) or it failed. */
  onError?: (code: PrivyErrorCodeValue) => void;
}

/**
 * Opens the modal's link or update flow (`controller.openLink` / `openUpdate`) and reports how it
 * ended through the callbacks. Shared by `useLinkAccount` and `useUpdateAccount`. Before opening it
 * applies spec §5 (core `requireLinkable` / `requireUpdatable`): signed out, a second account of the
 * type, or an update without one throws the spec's message (and calls `onError`).
 */
export function useAccountFlow(hookName: string, flow: "link" | "update", options: AccountFlowCallbacks) {
  const { client, controller } = usePrivyContext(hookName);
  const callbacks = useRef(options);
  callbacks.current = options;
  useEffect(
    () =>
      controller?.onOutcome((outcome) => {
        if (outcome.flow !== flow) return;
        if (outcome.type === "error") callbacks.current.onError?.(outcome.code);
        else {
          const done = { user: formatUser(outcome.result.user) };
          callbacks.current.onSuccess?.(outcome.kind ? { ...done, kind: outcome.kind } : done);
        }
      }, flow),
    [controller, flow],
  );
  return (kind: AccountKind) => {
    try {
      openAccountFlow(client, controller, flow, kind);
    } catch (e) {
      callbacks.current.onError?.(toAccountErrorCode(e, flow));
      throw e;
    }
  };
}
