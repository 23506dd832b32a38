import { ConfirmScreen } from "../ConfirmScreen";
import type { ScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { ConfirmScreenState } from "./createConfirmFlow";

const CONFIRM_SCREENS: FlowScreens<ConfirmScreenState, ScreenContext> = {
  confirm: {
    render: (screen, { flows, titleId }) => (
      <ConfirmScreen
        request={screen.confirmation}
        titleId={titleId}
        onConfirm={() => flows.confirm.resolveConfirmation(true)}
        onCancel={() => flows.confirm.resolveConfirmation(false)}
      />
    ),
  },
};
export default CONFIRM_SCREENS;
