import { MODAL_CSS } from "./styles";

const STYLE_ID = "symbolon-modal-styles";

/** Adds the modal's `<style>` element to the document once (on first open). */
export function injectStyles(doc: Document = document): void {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement("style");
  style.id = STYLE_ID;
  style.textContent = MODAL_CSS;
  doc.head.appendChild(style);
}
