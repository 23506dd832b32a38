import type { ModalController } from "../provider/createModalController";
import type { LoginMethod } from "./loginMethods";
import { MethodButtons } from "./MethodButtons";
import { ScreenTitle } from "./ScreenTitle";

/** "More options": the app's overflow login methods, and Back to the login screen. */
export function MoreScreen({
  controller,
  methods,
}: {
  controller: ModalController;
  methods: readonly LoginMethod[];
}) {
  return (
    <>
      <ScreenTitle focus>More options</ScreenTitle>
      <MethodButtons controller={controller} methods={methods} />
      <button type="button" className="symbolon-link" onClick={controller.back}>
        Back
      </button>
    </>
  );
}
