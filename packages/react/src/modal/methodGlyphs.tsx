// Decorative marks of the login methods that have one (the button's text names the method).

/** A wallet glyph for "Continue with a wallet" (decorative: the text names the method). */
export function WalletGlyph() {
  return (
    <svg className="symbolon-provider-logo" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
      <rect
        x="2"
        y="4.5"
        width="16"
        height="12"
        rx="2.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
      />
      <path
        d="M4.5 4.5l8-2.5 1 2.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
      <circle cx="14" cy="10.5" r="1.3" fill="currentColor" />
    </svg>
  );
}

/** A passkey glyph for "Continue with a passkey": a person with a key (decorative). */
export function PasskeyGlyph({ size = 20 }: { size?: number }) {
  return (
    <svg className="symbolon-provider-logo" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <circle cx="9" cy="7" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path
        d="M2 20c0-3.3 3.1-6 7-6 1.2 0 2.3.2 3.3.7"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
      <circle cx="18" cy="12.5" r="2.6" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path
        d="M18 15.1V21m0-2.6h1.8M18 21h1.4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}
