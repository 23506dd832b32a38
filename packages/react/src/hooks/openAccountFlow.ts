import { type Client, requireLinkable, requireUpdatable } from "@symbolon/core";
import type { AccountKind, ModalController } from "../provider/createModalController";

/**
 * Opens the modal's link or update flow for an email or phone after the spec §5 checks (core
 * `requireLinkable` / `requireUpdatable`): signed out, a second account of the type, or an update
 * without one throws the spec's message instead.
 */
export function openAccountFlow(
  client: Client | null,
  controller: ModalController | null,
  flow: "link" | "update",
  kind: AccountKind,
): void {
  if (client) {
    if (flow === "link") requireLinkable(client, kind);
    else requireUpdatable(client, kind);
  }
  if (flow === "link") controller?.openLink(kind);
  else controller?.openUpdate(kind);
}
