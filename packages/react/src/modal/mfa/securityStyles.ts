import { useInsertionEffect } from "react";
import { injectStyles } from "../injectStyles";

/** Styles of the passkey and MFA screens (lists, method choice, the setup key); a sheet of their own. */
export const SECURITY_CSS = `
.symbolon-passkeys,.symbolon-mfa-methods{display:flex;flex-direction:column;gap:6px;margin:0;padding:0;list-style:none}
.symbolon-passkeys:focus{outline:none}
.symbolon-passkey,.symbolon-mfa-method{display:flex;align-items:center;gap:10px;min-height:56px;padding:8px 12px;border:1px solid var(--symbolon-border);border-radius:14px}
.symbolon-passkey-text{display:flex;flex:1;flex-direction:column;min-width:0;line-height:1.3}
.symbolon-passkey-name{font-weight:600;overflow-wrap:anywhere}
.symbolon-passkey-detail{color:var(--symbolon-muted);font-size:12px}
.symbolon-badge{flex:none;padding:2px 8px;border-radius:999px;background:var(--symbolon-field);color:var(--symbolon-muted);font-size:12px;font-weight:600}
.symbolon-choice{flex:1;min-height:48px;border:1px solid var(--symbolon-border);border-radius:12px;background:transparent;color:var(--symbolon-fg);font:inherit;font-weight:600;cursor:pointer}
.symbolon-choice[aria-pressed="true"]{border-color:var(--symbolon-accent);background:color-mix(in srgb,var(--symbolon-accent) 10%,transparent)}
.symbolon-choices{display:flex;gap:6px;margin:0 0 12px}
.symbolon-warning{padding:10px 12px;border:1px solid var(--symbolon-error);border-radius:12px;font-size:14px;text-align:left}
.symbolon-warning p{margin:0}
.symbolon-warning ul{margin:6px 0 0;padding-left:18px;overflow-wrap:anywhere}
.symbolon-small{height:36px;padding:0 12px;font-size:14px}
.symbolon-setup-key{display:flex;align-items:center;gap:8px;padding:8px 12px;border:1px solid var(--symbolon-border);border-radius:12px;background:var(--symbolon-field)}
.symbolon-setup-key code{flex:1;min-width:0;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
`;

const SHEET = { id: "symbolon-security-styles", css: SECURITY_CSS };

/** Injects the passkey and MFA styles once, from the first such screen shown. */
export function useSecurityStyles(): void {
  useInsertionEffect(() => injectStyles(SHEET), []);
}
