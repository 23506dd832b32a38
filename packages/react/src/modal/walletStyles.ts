/** Styles of the wallet screens only (confirmation, export, delegation), injected with the wallet modal's chunk. */
export const WALLET_CSS = `
.symbolon-details{display:flex;flex-direction:column;gap:8px;margin:4px 0 16px}
.symbolon-row{display:flex;justify-content:space-between;gap:12px;font-size:14px}
.symbolon-row dt{color:var(--symbolon-muted)}
.symbolon-row dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere}
.symbolon-fields{display:flex;flex-direction:column;gap:6px;margin:0}
.symbolon-fields--nested{margin-top:6px;padding-left:12px;border-left:2px solid var(--symbolon-border)}
.symbolon-row--group{flex-direction:column;gap:0}
.symbolon-row--group>dd{text-align:left;font-weight:400}
.symbolon-more{margin-bottom:16px}
.symbolon-more>summary{cursor:pointer;color:var(--symbolon-muted);font-size:14px;font-weight:600;margin-bottom:6px}
.symbolon-block{display:flex;flex-direction:column;gap:6px;margin-bottom:16px}
.symbolon-message{margin:0;max-height:168px;overflow:auto;padding:10px 12px;border:1px solid var(--symbolon-border);border-radius:12px;background:var(--symbolon-field);font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
.symbolon-actions{display:flex;gap:12px;margin-top:auto;padding-top:8px}
.symbolon-actions+.symbolon-footer{margin-top:0}
.symbolon-actions .symbolon-button{flex:1}
.symbolon-button--secondary{border:1px solid var(--symbolon-border);background:var(--symbolon-field);color:var(--symbolon-fg)}
.symbolon-export{display:flex;flex:none;height:min(340px,60vh);margin-bottom:8px;border:1px solid var(--symbolon-border);border-radius:12px;overflow:hidden}
.symbolon-export iframe{display:block;flex:1;width:100%;height:100%!important;border:0}
.symbolon-terms{flex:0 1 auto;min-height:96px;max-height:min(240px,36vh);overflow-y:auto;margin:0 -4px 12px;padding:0 4px;border-bottom:1px solid var(--symbolon-border)}
.symbolon-terms>.symbolon-block:last-child{margin-bottom:8px}
.symbolon-promise{margin-bottom:8px;font-size:14px}
.symbolon-signer{gap:4px}
.symbolon-signer>h3{margin:0}
.symbolon-signer-id{font-weight:400}
.symbolon-policy{margin:0;font-size:14px}
.symbolon-policy-name{margin:0;font-weight:600}
.symbolon-rules{margin:4px 0 0;padding-left:18px;display:flex;flex-direction:column;gap:4px;font-size:13px}
.symbolon-rules code{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.symbolon-rule-name{color:var(--symbolon-muted)}
.symbolon-wallets{margin:0 0 12px;padding:0;list-style:none;display:flex;flex-direction:column;gap:6px;align-items:center;font:14px ui-monospace,SFMono-Regular,Menlo,monospace}
.symbolon-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`;
