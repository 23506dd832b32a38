import type { ReactNode } from "react";
import type { ModalController } from "../provider/createModalController";
import type { LoginMethod } from "./loginMethods";

/** The button of a method that is not shown inline. */
const METHOD_LABELS: Record<LoginMethod, string> = {
  email: "Continue with email",
  sms: "Continue with SMS",
};

/** One button per login method ("Continue with SMS"), then `children` (e.g. "More options"). */
export function MethodButtons({
  controller,
  methods,
  children,
}: {
  controller: ModalController;
  methods: readonly LoginMethod[];
  children?: ReactNode;
}) {
  return (
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
      {children}
    </div>
  );
}
