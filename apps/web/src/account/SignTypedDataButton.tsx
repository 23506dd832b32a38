import { useState } from "react";
import { DEMO_TYPED_DATA } from "./demoTypedData";
import { errorMessage } from "./errorMessage";

/** Props of {@link SignTypedDataButton}. */
export interface SignTypedDataButtonProps {
  sign: (typedData: typeof DEMO_TYPED_DATA) => Promise<{ signature: string }>;
}

/** "Sign typed data": signs the fixed EIP-712 demo object and shows the signature. */
export function SignTypedDataButton({ sign }: SignTypedDataButtonProps) {
  const [signing, setSigning] = useState(false);
  const [signature, setSignature] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setSigning(true);
    setSignature(null);
    setError(null);
    try {
      setSignature((await sign(DEMO_TYPED_DATA)).signature);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSigning(false);
    }
  };

  return (
    <div className="wallet-form">
      <h3 className="wallet-form__title">Sign typed data (EIP-712)</h3>
      <p className="wallet-form__hint">
        A "{DEMO_TYPED_DATA.primaryType}" for {DEMO_TYPED_DATA.domain.name} on chain{" "}
        {DEMO_TYPED_DATA.domain.chainId}.
      </p>
      <button type="button" className="button button--small" disabled={signing} onClick={() => void run()}>
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
        </p>
      )}
    </div>
  );
}
