import type { CodeRefusal } from "./codeRefusal.ts";

/** Whether no guess of the current code can succeed any more: the person needs a new code. */
export function needsNewCode(refusal: CodeRefusal | null): boolean {
  if (refusal === null) return false;
  return (
    refusal.kind === "used_up" ||
    refusal.kind === "expired" ||
    (refusal.kind === "wrong" && refusal.attemptsLeft === 0)
  );
}
