import { exportWallet } from "@symbolon/core";
import { ExportScreen } from "../ExportScreen";
import type { ScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { ExportScreenState } from "./createExportFlow";

const EXPORT_SCREENS: FlowScreens<ExportScreenState, ScreenContext> = {
  export: {
    render: ({ exportAddress }, { client, close, titleId }) => (
      <ExportScreen
        address={exportAddress}
        titleId={titleId}
        mount={(container) =>
          // Escape inside the wallet page closes the dialog as Escape anywhere else in it does.
          exportWallet(client, { address: exportAddress, container, onEscape: close })
        }
        onDone={close}
      />
    ),
  },
};
export default EXPORT_SCREENS;
