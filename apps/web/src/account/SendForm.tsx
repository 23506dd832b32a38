import { useId, useState } from "react";
import { formatEther } from "viem";
import { CopyButton } from "./CopyButton";
import { errorMessage } from "./errorMessage";
import { isUserRejection } from "./isUserRejection";
import { parseAmount, validateRecipient } from "./validate";

/** Props of {@link SendForm}. */
export interface SendFormProps {
  /** The wallet's balance in wei, or null while unknown (the balance check is then skipped). */
  balance: bigint | null;
  /** Sends `wei` to `to` (after the user confirms in the modal); resolves with the transaction hash. */
  send: (to: `0x${string}`, wei: bigint) => Promise<string>;
  /** Resolves with the block number once the transaction is mined. */
  confirm: (hash: string) => Promise<number>;
  /** Called after submission and after confirmation, so the balance can refresh. */
  onSent: () => void;
  /**
   * The most that can be sent: the balance less the highest network fee of a transfer. Offers
   * "Max" when given; resolves null when it cannot tell (balance or fees unknown).
   */
  maxSendable?: () => Promise<bigint | null>;
  /** The chain's block explorer (no trailing slash), for a link to the transaction. */
  explorerUrl?: string;
}

interface FieldErrors {
  recipient: string | null;
  amount: string | null;
}
const NO_ERRORS: FieldErrors = { recipient: null, amount: null };

/** "Send STT": recipient and amount, checked before anything is signed; shows the hash and block. */
export function SendForm({ balance, send, confirm, onSent, maxSendable, explorerUrl }: SendFormProps) {
  const [recipient, setRecipient] = useState("");
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [sending, setSending] = useState(false);
  const [hash, setHash] = useState<string | null>(null);
  const [block, setBlock] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const ids = { recipient: useId(), amount: useId(), recipientError: useId(), amountError: useId() };

  const fillMax = async () => {
    setErrors((current) => ({ ...current, amount: null }));
    try {
      const max = await maxSendable?.();
      if (max === null || max === undefined) {
        setErrors((current) => ({
          ...current,
          amount: "Cannot tell the network fee right now. Enter an amount.",
        }));
      } else if (max <= 0n) {
        setErrors((current) => ({ ...current, amount: "Not enough STT to cover the network fee" }));
      } else {
        setAmount(formatEther(max));
      }
    } catch (error) {
      setErrors((current) => ({ ...current, amount: errorMessage(error) }));
    }
  };

  const submit = async () => {
    if (sending) return;
    const recipientError = validateRecipient(recipient);
    const parsed = parseAmount(amount, balance);
    setErrors({ recipient: recipientError, amount: parsed.ok ? null : parsed.error });
    setFailure(null);
    if (recipientError || !parsed.ok) return;
    setSending(true);
    setHash(null);
    setBlock(null);
    let sent: string;
    try {
      sent = await send(recipient.trim() as `0x${string}`, parsed.wei);
    } catch (error) {
      // Cancelling in the confirmation is the person's choice: the form comes back as it was.
      if (!isUserRejection(error)) setFailure(errorMessage(error));
      return;
    } finally {
      setSending(false);
    }
    setHash(sent);
    // Sent: the form is ready for the next one.
    setRecipient("");
    setAmount("");
    onSent();
    try {
      setBlock(await confirm(sent));
      onSent();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <form
      className="wallet-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 className="wallet-form__title">Send STT</h3>
      <label className="field__label" htmlFor={ids.recipient}>
        Recipient
      </label>
      <input
        id={ids.recipient}
        className="field__input"
        placeholder="0x…"
        autoComplete="off"
        spellCheck={false}
        value={recipient}
        aria-invalid={errors.recipient !== null}
        aria-describedby={errors.recipient ? ids.recipientError : undefined}
        onChange={(event) => {
          setRecipient(event.target.value);
          setErrors((current) => ({ ...current, recipient: null }));
        }}
      />
      {errors.recipient && (
        <p id={ids.recipientError} role="alert" className="field__error">
          {errors.recipient}
        </p>
      )}
      <label className="field__label" htmlFor={ids.amount}>
        Amount (STT)
      </label>
      <div className="field__row">
        <input
          id={ids.amount}
          className="field__input"
          inputMode="decimal"
          placeholder="0.01"
          autoComplete="off"
          value={amount}
          aria-invalid={errors.amount !== null}
          aria-describedby={errors.amount ? ids.amountError : undefined}
          onChange={(event) => {
            setAmount(event.target.value);
            setErrors((current) => ({ ...current, amount: null }));
          }}
        />
        {maxSendable && (
          <button
            type="button"
            className="button button--small button--ghost"
            title="The whole balance, less the network fee"
            disabled={sending}
            onClick={() => void fillMax()}
          >
            Max
          </button>
        )}
      </div>
      {errors.amount && (
        <p id={ids.amountError} role="alert" className="field__error">
          {errors.amount}
        </p>
      )}
      {/* aria-disabled, not disabled: focus stays on the button, so it comes back here after the confirmation. */}
      <button type="submit" className="button button--small" aria-disabled={sending}>
        {sending ? "Sending…" : "Send"}
      </button>
      {failure && (
        <p role="alert" className="field__error">
          {failure}
        </p>
      )}
      {hash && (
        <div className="wallet-result">
          <span className="wallet-result__label">Transaction</span>
          <code data-testid="tx-hash">{hash}</code>
          <CopyButton text={hash} label="Copy transaction hash" />
          {explorerUrl && (
            <a href={`${explorerUrl}/tx/${hash}`} target="_blank" rel="noreferrer">
              View in explorer
            </a>
          )}
          <span role="status">
            {block === null ? "Waiting for confirmation…" : `Confirmed in block ${block}`}
          </span>
        </div>
      )}
    </form>
  );
}
