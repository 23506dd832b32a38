import { MODAL_CSS } from "./styles";

/** The modal's base stylesheet. */
const MODAL_SHEET = { id: "symbolon-modal-styles", css: MODAL_CSS };

/** Adds a `<style>` element to the document once (on first open); by default the modal's base sheet. */
export function injectStyles(
  sheet: { id: string; css: string } = MODAL_SHEET,
  doc: Document = document,
): void {
  if (doc.getElementById(sheet.id)) return;
  const style = doc.createElement("style");
  style.id = sheet.id;
  style.textContent = sheet.css;
  doc.head.appendChild(style);
}
