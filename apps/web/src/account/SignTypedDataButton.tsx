import { CopyButton } from "./CopyButton";
import { DEMO_TYPED_DATA } from "./demoTypedData";
import { useSignature } from "./useSignature";

/** Props of {@link SignTypedDataButton}. */
export interface SignTypedDataButtonProps {
  sign: (typedData: typeof DEMO_TYPED_DATA) => Promise<{ signature: string }>;
}

/** "Sign typed data": signs the fixed EIP-712 demo object and shows the signature. */
export function SignTypedDataButton({ sign }: SignTypedDataButtonProps) {
  const { signing, signature, error, run } = useSignature();

  return (
    <div className="wallet-form">
      <h3 className="wallet-form__title">Sign typed data (EIP-712)</h3>
      <p className="wallet-form__hint">
        A "{DEMO_TYPED_DATA.primaryType}" for {DEMO_TYPED_DATA.domain.name} on chain{" "}
        {DEMO_TYPED_DATA.domain.chainId}.
      </p>
      <button
        type="button"
        className="button button--small"
        // aria-disabled: focus stays here and returns here after the confirmation.
        aria-disabled={signing}
        onClick={() => signing || void run(() => sign(DEMO_TYPED_DATA))}
      >
        Sign typed data
      </button>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
      {signature && (
        <p className="wallet-result">
          <span className="wallet-result__label">Signature</span>
          <code data-testid="typed-signature">{signature}</code>
          <CopyButton text={signature} label="Copy signature" />
        </p>
      )}
    </div>
  );
}
