import type { Client } from "@symbolon/core";
import { createContext } from "react";
import type { ModalController } from "./createModalController";
import type { PrivyConfig } from "./PrivyConfig";

/** What the provider shares with hooks and the modal. */
export interface PrivyContextValue {
  /** Null until the provider mounted in a browser (always null during SSR). */
  client: Client | null;
  controller: ModalController | null;
  config: PrivyConfig;
}

/** Context set by `PrivyProvider`; `null` outside it. */
export const PrivyContext = createContext<PrivyContextValue | null>(null);
