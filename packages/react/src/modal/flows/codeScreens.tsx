import { lazy } from "react";
import { CodeScreen } from "../CodeScreen";
import { EmailScreen } from "../EmailScreen";
import { accountFlowOf, always, backOf, entryTexts, type LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { CodeScreenState } from "./createCodeFlow";

// Its own chunk: a login by email never loads the phone screen (its country list).
const PhoneScreen = lazy(() => import("../PhoneScreen"));

const CODE_SCREENS: FlowScreens<CodeScreenState, LoginScreenContext> = {
  email: {
    render(screen, context) {
      const { texts, current, blocked } = entryTexts(screen.flow, "email", context);
      return (
        <EmailScreen
          client={context.client}
          actions={context.actions.code}
          titleId={context.titleId}
          title={texts?.title ?? "Log in with email"}
          subtitle={texts?.subtitle ?? `Enter your email to continue to ${context.appName}.`}
          disablePlusEmails={context.appConfig?.disable_plus_emails ?? false}
          initialEmail={screen.email ?? ""}
          placeholder={current ?? undefined}
          current={current ?? undefined}
          blocked={blocked}
          onBack={backOf(screen.flow, context)}
        />
      );
    },
    compact: always,
  },
  phone: {
    render(screen, context) {
      const { texts, blocked } = entryTexts(screen.flow, "phone", context);
      return (
        <PhoneScreen
          client={context.client}
          actions={context.actions.code}
          titleId={context.titleId}
          title={texts?.title ?? "Log in with SMS"}
          subtitle={texts?.subtitle ?? `Enter your phone number to continue to ${context.appName}.`}
          submitLabel={accountFlowOf(screen.flow) === "update" ? "Update" : "Submit"}
          initialNumber={screen.phoneNumber ?? ""}
          blocked={blocked}
          onBack={backOf(screen.flow, context)}
        />
      );
    },
  },
  code: {
    render(screen, context) {
      const to = screen.channel === "email" ? screen.email : screen.phoneNumber;
      return (
        <CodeScreen
          // A new address is a new code screen (no state carried over from the previous one).
          key={to}
          client={context.client}
          actions={context.actions.code}
          flow={accountFlowOf(screen.flow)}
          channel={screen.channel}
          to={to}
          appName={context.appName}
          titleId={context.titleId}
          resendWaitUntil={screen.resendWaitUntil}
        />
      );
    },
    compact: always,
  },
};
export default CODE_SCREENS;
