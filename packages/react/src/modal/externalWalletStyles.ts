import { useInsertionEffect } from "react";
import { injectStyles } from "./injectStyles";

/** Styles of the external-wallet screens (list, connecting, signing), injected by those lazy screens. */
export const EXTERNAL_WALLET_CSS = `
.symbolon-wallets{display:flex;flex-direction:column;gap:6px;margin:4px 0 0;padding:0;list-style:none;overflow:auto}
.symbolon-wallet{display:flex;align-items:center;gap:12px;width:100%;min-height:56px;padding:8px 12px;border:1px solid var(--symbolon-border);border-radius:14px;background:transparent;color:var(--symbolon-fg);font:inherit;font-weight:600;text-align:left;cursor:pointer}
.symbolon-wallet:hover{background:var(--symbolon-field)}
.symbolon-wallet-text{display:flex;flex:1;flex-direction:column;min-width:0;line-height:1.3}
.symbolon-wallet-name{overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow-wrap:anywhere}
.symbolon-wallet-chain{color:var(--symbolon-muted);font-size:12px;font-weight:500}
.symbolon-wallet-icon{flex:none;width:40px;height:40px;border-radius:10px;object-fit:cover}
.symbolon-wallet-icon--large{width:64px;height:64px;border-radius:16px}
.symbolon-badge{flex:none;padding:2px 8px;border-radius:999px;background:var(--symbolon-field);color:var(--symbolon-muted);font-size:12px;font-weight:600}
.symbolon-badge--installed{background:color-mix(in srgb,var(--symbolon-success) 14%,transparent);color:var(--symbolon-success)}
.symbolon-wallets-heading{margin:12px 0 4px;color:var(--symbolon-muted);font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em}
.symbolon-wallet-status{display:flex;flex-direction:column;align-items:center;gap:8px;margin:8px 0 16px}
.symbolon-wallet-status .symbolon-subtitle{margin:0}
.symbolon-wallet-ring{position:relative;display:flex;align-items:center;justify-content:center;width:88px;height:88px}
.symbolon-wallet-ring::before{content:"";position:absolute;inset:0;border:3px solid var(--symbolon-border);border-top-color:var(--symbolon-accent);border-radius:50%;animation:symbolon-spin .9s linear infinite}
.symbolon-wallet-ring--still::before{animation:none;border-top-color:var(--symbolon-border)}
.symbolon-wallet-ring--failed::before{animation:none;border-color:var(--symbolon-error)}
@media (prefers-reduced-motion:reduce){.symbolon-wallet-ring::before{animation-duration:3s}}
`;

const SHEET = { id: "symbolon-external-wallet-styles", css: EXTERNAL_WALLET_CSS };

/** Injects the external-wallet styles once, from the first wallet screen shown. */
export function useExternalWalletStyles(): void {
  useInsertionEffect(() => injectStyles(SHEET), []);
}
