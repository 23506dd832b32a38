import type { ModalController } from "../provider/createModalController";
import type { LoginMethod } from "./loginMethods";
import { METHOD_LABELS } from "./MethodsScreen";
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
      <div className="symbolon-methods">
        {methods.map((method) => (
          <button
            key={method}
            type="button"
            className="symbolon-secondary"
            onClick={() => controller.chooseMethod(method)}
          >
            {METHOD_LABELS[method]}
          </button>
        ))}
      </div>
      <button type="button" className="symbolon-link" onClick={controller.back}>
        Back
      </button>
    </>
  );
}
