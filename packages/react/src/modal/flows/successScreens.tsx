import { SuccessScreen } from "../SuccessScreen";
import { always, type LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { SuccessScreenState } from "./showSuccess";

const SUCCESS_SCREENS: FlowScreens<SuccessScreenState, LoginScreenContext> = {
  success: {
    render: (screen) => <SuccessScreen title={screen.title} />,
    compact: always,
    bare: true,
  },
};
export default SUCCESS_SCREENS;
