import type { ReactElement } from "react";

/** The app's logo at the top of the first screen: an image URL or the host's own element. */
export function Logo({ logo, appName }: { logo: string | ReactElement | undefined; appName: string }) {
  if (!logo) return null;
  return (
    <div className="symbolon-logo">{typeof logo === "string" ? <img src={logo} alt={appName} /> : logo}</div>
  );
}
