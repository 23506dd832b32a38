import { shortenAddress } from "./shortenAddress";

/** An address shortened on screen; the full address on hover and for screen readers. */
export function Address({ value }: { value: string }) {
  return (
    <span title={value}>
      <span aria-hidden="true">{shortenAddress(value)}</span>
      <span className="symbolon-sr">{value}</span>
    </span>
  );
}
