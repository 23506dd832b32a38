import { DIALOG_WIDTH_PX, MODAL_HEIGHT_COMPACT_PX } from "@symbolon/core";

/** The modal's stylesheet: plain CSS, classes prefixed `symbolon-`, theme through CSS variables. */
export const MODAL_CSS = `
.symbolon-backdrop{position:fixed;inset:0;z-index:2147483000;display:flex;align-items:center;justify-content:center;background:rgba(15,17,21,.48);animation:symbolon-fade .15s ease-out}
.symbolon-backdrop:has(>.symbolon-dark){background:rgba(0,0,0,.72)}
.symbolon-modal{--symbolon-accent:#5b4bff;--symbolon-accent-text:#fff;--symbolon-bg:#fff;--symbolon-fg:#14161a;--symbolon-muted:#5d6470;--symbolon-border:#d9dde3;--symbolon-field:#f5f6f8;--symbolon-error:#c4231a;--symbolon-success:#13804b;
box-sizing:border-box;position:relative;display:flex;flex-direction:column;width:${DIALOG_WIDTH_PX}px;max-width:calc(100vw - 32px);height:auto;max-height:min(var(--symbolon-height,${MODAL_HEIGHT_COMPACT_PX}px),calc(100vh - 32px));padding:24px;border-radius:20px;background:var(--symbolon-bg);color:var(--symbolon-fg);box-shadow:0 24px 64px rgba(0,0,0,.24);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;animation:symbolon-pop .18s ease-out;overflow:hidden}
.symbolon-body{display:flex;flex:1 1 auto;flex-direction:column;min-height:0;margin:-4px -24px;padding:4px 24px;overflow-y:auto;overscroll-behavior:contain}
.symbolon-modal *,.symbolon-modal *::before,.symbolon-modal *::after{box-sizing:border-box}
.symbolon-modal.symbolon-dark{--symbolon-accent:#8a7dff;--symbolon-accent-text:#0f1115;--symbolon-bg:#17191e;--symbolon-fg:#f2f3f5;--symbolon-muted:#a2a9b4;--symbolon-border:#343842;--symbolon-field:#22252c;--symbolon-error:#ff6b61;--symbolon-success:#4ccf8a}
.symbolon-modal[data-layout="sheet"]{position:fixed;left:0;right:0;bottom:0;width:100%;max-width:100%;padding-bottom:max(24px,env(safe-area-inset-bottom));border-radius:20px 20px 0 0;animation:symbolon-rise .2s ease-out}
.symbolon-modal[data-layout="sheet"]::before{content:"";position:absolute;top:8px;left:50%;width:36px;height:4px;margin-left:-18px;border-radius:2px;background:var(--symbolon-border)}
.symbolon-close{position:absolute;top:14px;right:14px;width:32px;height:32px;border:0;border-radius:50%;background:transparent;color:var(--symbolon-muted);font-size:22px;line-height:1;cursor:pointer}
.symbolon-close:hover{background:var(--symbolon-field);color:var(--symbolon-fg)}
.symbolon-logo{display:flex;align-items:center;justify-content:center;gap:8px;margin:0 32px 8px;color:var(--symbolon-muted);font-size:14px;font-weight:600}
.symbolon-logo img{height:32px;width:auto;max-width:120px}
.symbolon-title{margin:8px 0 6px;font-size:20px;font-weight:650;text-align:center}
.symbolon-subtitle{margin:0 0 20px;color:var(--symbolon-muted);text-align:center;overflow-wrap:anywhere}
.symbolon-form{display:flex;flex-direction:column;gap:12px}
.symbolon-label{font-size:13px;font-weight:600;color:var(--symbolon-muted)}
.symbolon-input{width:100%;height:48px;padding:0 14px;border:1px solid var(--symbolon-border);border-radius:12px;background:var(--symbolon-field);color:var(--symbolon-fg);font:inherit;font-size:16px}
.symbolon-input[aria-invalid="true"]{border-color:var(--symbolon-error)}
.symbolon-modal :focus-visible{outline:2px solid var(--symbolon-accent);outline-offset:2px}
.symbolon-button{height:48px;border:0;border-radius:12px;background:var(--symbolon-accent);color:var(--symbolon-accent-text);font:inherit;font-weight:600;cursor:pointer}
.symbolon-button:disabled,.symbolon-button[aria-disabled=true]{opacity:.5;cursor:not-allowed}
.symbolon-secondary{height:48px;border:1px solid var(--symbolon-border);border-radius:12px;background:transparent;color:var(--symbolon-fg);font:inherit;font-weight:600;cursor:pointer}
.symbolon-secondary:hover{background:var(--symbolon-field)}
.symbolon-button.symbolon-destructive{background:var(--symbolon-error);color:#fff}
.symbolon-dark .symbolon-button.symbolon-destructive{color:#0f1115}
.symbolon-secondary.symbolon-destructive{color:var(--symbolon-error)}
.symbolon-methods{display:flex;flex-direction:column;gap:8px;margin-top:12px}
.symbolon-provider{display:flex;align-items:center;justify-content:center;gap:10px}
.symbolon-provider-logo{flex:none;border-radius:5px}
.symbolon-divider{display:flex;align-items:center;gap:12px;margin:12px 0 0;color:var(--symbolon-muted);font-size:13px}
.symbolon-divider::before,.symbolon-divider::after{content:"";flex:1;height:1px;background:var(--symbolon-border)}
.symbolon-divider+.symbolon-methods{margin-top:8px}
.symbolon-spinner{width:56px;height:56px;border:4px solid var(--symbolon-border);border-top-color:var(--symbolon-accent);border-radius:50%;animation:symbolon-spin .9s linear infinite}
.symbolon-check.symbolon-failed{background:var(--symbolon-error)}
.symbolon-check.symbolon-cancelled{background:var(--symbolon-field);color:var(--symbolon-muted);border:1px solid var(--symbolon-border)}
.symbolon-qr{display:flex;justify-content:center;margin:12px 0}
.symbolon-select{appearance:auto;padding-right:8px}
.symbolon-title:focus{outline:none}
.symbolon-subtitle a{color:inherit;text-decoration:underline}
.symbolon-link{align-self:center;border:0;background:none;color:var(--symbolon-accent);font:inherit;font-weight:600;cursor:pointer;padding:6px}
.symbolon-dark .symbolon-link{color:color-mix(in srgb,var(--symbolon-accent) 55%,#fff)}
.symbolon-link:disabled,.symbolon-link[aria-disabled=true]{color:var(--symbolon-muted);cursor:not-allowed}
.symbolon-alert{margin:0;color:var(--symbolon-error);font-size:14px;text-align:center}
.symbolon-status{margin:0;color:var(--symbolon-muted);font-size:13px;text-align:center}
.symbolon-digits{display:flex;justify-content:center;gap:8px;margin:4px 0 8px}
.symbolon-digit{width:44px;height:54px;padding:0;border:1px solid var(--symbolon-border);border-radius:12px;background:var(--symbolon-field);color:var(--symbolon-fg);font:inherit;font-size:22px;font-weight:600;text-align:center}
.symbolon-digit[aria-invalid="true"]{border-color:var(--symbolon-error)}
.symbolon-success{display:flex;flex:1;flex-direction:column;align-items:center;justify-content:center;gap:8px}
.symbolon-check{display:flex;align-items:center;justify-content:center;width:56px;height:56px;border-radius:50%;background:var(--symbolon-success);color:#fff;font-size:28px}
.symbolon-layer{display:contents}.symbolon-layer[hidden]{display:none}
.symbolon-footer{flex:none;margin:0;padding-top:12px;color:var(--symbolon-muted);font-size:12px;text-align:center}
@keyframes symbolon-fade{from{opacity:0}}
@keyframes symbolon-pop{from{opacity:0;transform:scale(.97)}}
@keyframes symbolon-rise{from{transform:translateY(24px)}}
@keyframes symbolon-spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.symbolon-backdrop,.symbolon-modal{animation:none}.symbolon-spinner{animation-duration:3s}}
`;
