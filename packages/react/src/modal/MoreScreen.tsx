import type { LoginMethodsActions } from "./flows/createLoginMethodsActions";
import type { LoginMethod } from "./loginMethods";
import { MethodButtons } from "./MethodButtons";
import { ScreenTitle } from "./ScreenTitle";

/** "More options": the app's overflow login methods, and Back to the login screen. */
export function MoreScreen({
  actions,
  methods,
}: {
  actions: LoginMethodsActions;
  methods: readonly LoginMethod[];
}) {
  return (
    <>
      <ScreenTitle focus>More options</ScreenTitle>
      <MethodButtons actions={actions} methods={methods} />
      <button type="button" className="symbolon-link" onClick={actions.back}>
        Back
      </button>
    </>
  );
}
