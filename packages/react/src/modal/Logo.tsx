import type { ReactElement } from "react";

/** The modal's header: the app's logo (an image URL or the host's own element) and its name. */
export function Logo({
  logo,
  appName,
}: {
  logo: string | ReactElement | undefined;
  appName: string | undefined;
}) {
  if (!logo && !appName) return null;
  return (
    <div className="symbolon-logo">
      {typeof logo === "string" ? <img src={logo} alt="" /> : logo}
      {appName && <span className="symbolon-app-name">{appName}</span>}
    </div>
  );
}
