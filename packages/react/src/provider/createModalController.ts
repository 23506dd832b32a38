import type { Client } from "@symbolon/core";
import {
  createModalCore,
  type ModalCore,
  type ModalLayer,
  type NoScreen,
} from "../modal/core/createModalCore";
import type { FlowDeps } from "../modal/core/defineFlow";
import type { ModalScreen } from "../modal/core/ModalScreen";
import { FLOWS, type FlowsApi, type ModalFlows } from "../modal/modalFlows";

export type { WalletFlowKind } from "../modal/flows/createWalletFlow";
export type { AccountKind } from "../modal/flows/signInTypes";

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
 * how it ended (what each flow exposes). `core` and `flows` are for the modal's own screens.
 */
export interface ModalController extends Pick<ModalCore, "subscribe" | "close" | "destroy">, FlowsApi {
  getState(): ModalSnapshot;
  core: ModalCore;
  flows: ModalFlows;
}

/** A flow definition of `FLOWS`, as the controller reads it. */
type AnyFlowDefinition = { create?(deps: FlowDeps): unknown; exposes?: readonly string[] };

/** Creates the modal for one client: the core and every flow of `FLOWS` over it. */
export function createModalController(client: Client): ModalController {
  const core = createModalCore();
  const created = new Map<AnyFlowDefinition, unknown>();
  const deps: FlowDeps = {
    core,
    client,
    use(definition) {
      if (!created.has(definition)) created.set(definition, definition.create?.(deps));
      return created.get(definition) as ReturnType<NonNullable<typeof definition.create>>;
    },
  };
  const flows: Record<string, unknown> = {};
  const exposed: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries<AnyFlowDefinition>(FLOWS)) {
    const instance = deps.use(definition);
    // The flows that keep nothing (the MFA flows follow core's store) are not in `flows`.
    if (typeof instance !== "object" || instance === null) continue;
    flows[name] = instance;
    for (const member of definition.exposes ?? [])
      exposed[member] = (instance as Record<string, unknown>)[member];
  }
  return {
    // By name, as `FLOWS` types them (`ModalFlows`, `FlowsApi`).
    ...(exposed as FlowsApi),
    getState: core.getState,
    subscribe: core.subscribe,
    close: core.close,
    destroy: core.destroy,
    core,
    flows: flows as ModalFlows,
  };
}
