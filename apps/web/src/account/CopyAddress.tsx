import { CopyButton } from "./CopyButton";

/** "Copy address": writes the address to the clipboard and announces "Copied" to screen readers. */
export function CopyAddress({ address }: { address: string }) {
  return <CopyButton text={address} label="Copy address" />;
}
