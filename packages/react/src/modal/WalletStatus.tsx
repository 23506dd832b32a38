import type { WalletOption } from "@symbolon/core";
import type { ReactNode } from "react";
import { ScreenTitle } from "./ScreenTitle";
import { WalletIcon } from "./WalletIcon";

/**
 * The frame of the wallet status screens: the wallet's icon in a ring (spinning while `busy`, red when
 * `failed`), the title (focused, so screen readers start there), then `children`.
 */
export function WalletStatus({
  option,
  name,
  state,
  title,
  titleId,
  children,
}: {
  option: WalletOption | null;
  name: string;
  state: "busy" | "done" | "failed";
  title: string;
  titleId: string;
  children: ReactNode;
}) {
  const ring =
    state === "busy"
      ? "symbolon-wallet-ring"
      : `symbolon-wallet-ring symbolon-wallet-ring--${state === "failed" ? "failed" : "still"}`;
  return (
    <div className="symbolon-form">
      <div className="symbolon-wallet-status">
        <div className={ring}>
          <WalletIcon
            icon={option?.icon ?? null}
            name={option?.name ?? "W"}
            walletClientType={option?.walletClientType ?? ""}
            alt={`${name} logo`}
            large
          />
        </div>
        {/* Keyed by state: a failure (or success) remounts the title, which takes focus again. */}
        <ScreenTitle key={state} id={titleId} focus>
          {title}
        </ScreenTitle>
      </div>
      {children}
    </div>
  );
}
