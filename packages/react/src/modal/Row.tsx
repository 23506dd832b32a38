import type { ReactNode } from "react";

/** One labelled row of a confirmation's `<dl>`. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="symbolon-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
