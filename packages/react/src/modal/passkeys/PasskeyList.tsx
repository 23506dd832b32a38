import { type ReactNode, useEffect, useRef, useState } from "react";
import { useSecurityStyles } from "../mfa/securityStyles";
import { type Passkey, passkeyName } from "./passkeysOf";

/** Props of {@link PasskeyList}. */
export interface PasskeyListProps {
  passkeys: readonly Passkey[];
  /** How many show until "View all" (spec §2: 2 in management, 3 in enrolment). */
  limit: number;
  /** The list's accessible name. */
  label: string;
  /** A control at the end of each row (e.g. Remove). */
  action?: (passkey: Passkey) => ReactNode;
}

/** Where and when a passkey was made and last used: "Chrome on macOS · Last used 3 Nov 2026". */
function passkeyDetail(passkey: Passkey): string {
  const made = [passkey.created_with_browser, passkey.created_with_os].filter(Boolean).join(" on ");
  const at = passkey.latest_verified_at ?? passkey.first_verified_at ?? passkey.verified_at;
  const used = at
    ? `Last used ${new Date(at * 1000).toLocaleDateString(undefined, { dateStyle: "medium" })}`
    : "";
  return [made, used].filter(Boolean).join(" · ");
}

/** The user's passkeys, the first `limit` of them until "View all" shows the rest. */
export function PasskeyList({ passkeys, limit, label, action }: PasskeyListProps) {
  useSecurityStyles();
  const [all, setAll] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  // "View all" goes away when used: focus moves to the whole list instead of being lost.
  useEffect(() => {
    if (all) list.current?.focus();
  }, [all]);
  const shown = all ? passkeys : passkeys.slice(0, limit);
  return (
    <>
      <ul ref={list} tabIndex={-1} className="symbolon-passkeys" aria-label={label}>
        {shown.map((passkey) => (
          <li key={passkey.credential_id} className="symbolon-passkey">
            <span className="symbolon-passkey-text">
              <span className="symbolon-passkey-name">{passkeyName(passkey)}</span>
              <span className="symbolon-passkey-detail">{passkeyDetail(passkey)}</span>
            </span>
            {passkey.enrolled_in_mfa && <span className="symbolon-badge">MFA</span>}
            {action?.(passkey)}
          </li>
        ))}
      </ul>
      {!all && passkeys.length > limit && (
        <button type="button" className="symbolon-link" onClick={() => setAll(true)}>
          View all
        </button>
      )}
    </>
  );
}
