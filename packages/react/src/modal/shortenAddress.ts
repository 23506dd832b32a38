/** `0x1234…abcd`: enough to recognise an address; the full one goes into a title/aria-label. */
export function shortenAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
