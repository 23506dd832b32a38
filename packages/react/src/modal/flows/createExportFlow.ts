import type { ModalCore } from "../core/createModalCore";
import { defineFlow, walletModalScreens } from "../core/defineFlow";

/** The key export screen: the wallet page that shows the key of `exportAddress`. */
export type ExportScreenState = { flow: "export"; screen: "export"; exportAddress: string };

/** Shows a wallet's key (spec §4 export). */
export interface ExportFlow {
  /** Shows the key export screen for `address`. */
  openExport(address: string): void;
}

/** Creates the export flow over one modal core. */
export function createExportFlow(core: ModalCore): ExportFlow {
  return {
    openExport(address) {
      core.open(() => ({ screen: { flow: "export", screen: "export", exportAddress: address } }));
    },
  };
}

export const EXPORT_FLOW = defineFlow({
  create: ({ core }) => createExportFlow(core),
  exposes: ["openExport"],
  screens: walletModalScreens<ExportScreenState>("export", () => import("./exportScreens")),
});
