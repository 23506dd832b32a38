import { formatUnits, roundUnits, type WalletConfirmationRequest } from "@symbolon/core";
import { Address } from "./Address";
import { Row } from "./Row";
import { TypedDataRows, type TypedDataView } from "./TypedDataRows";

/** Props of {@link ConfirmScreen}. */
export interface ConfirmScreenProps {
  request: WalletConfirmationRequest;
  /** Id for the title, so the dialog is labelled by it. */
  titleId: string;
  onConfirm: () => void;
  onCancel: () => void;
}

const DEFAULT_TITLES: Record<WalletConfirmationRequest["kind"], string> = {
  "sign-message": "Sign message",
  "sign-typed-data": "Sign typed data",
  "sign-transaction": "Sign transaction",
  "send-transaction": "Send transaction",
};

/** Asks the user to approve one signature or transaction before the wallet frame signs it. */
export function ConfirmScreen({ request, titleId, onConfirm, onCancel }: ConfirmScreenProps) {
  const { kind, address, chain, uiOptions } = request;
  const title = uiOptions?.title ?? DEFAULT_TITLES[kind];
  const buttonText = uiOptions?.buttonText ?? (kind === "send-transaction" ? "Send" : "Sign");
  const isTransaction = kind === "sign-transaction" || kind === "send-transaction";
  const cost = isTransaction ? costOf(request.transaction ?? {}) : null;
  const currency = chain.nativeCurrency;
  // The amount and the most the network fee can be must both fit in the balance, or the chain
  // refuses the transaction after it was signed ("insufficient funds for gas * price + value").
  const shortfall =
    cost?.maxFee !== undefined && request.balance !== undefined && cost.amount + cost.maxFee > request.balance
      ? cost.amount + cost.maxFee - request.balance
      : null;
  return (
    <>
      <h2 id={titleId} className="symbolon-title">
        {title}
      </h2>
      {uiOptions?.description && <p className="symbolon-subtitle">{uiOptions.description}</p>}
      <dl className="symbolon-details">
        <Row label="Wallet">
          <Address value={address} />
        </Row>
        <Row label="Network">{chain.name}</Row>
        {kind === "sign-typed-data" && (
          <TypedDataRows
            typedData={typedDataOf(request.typedData)}
            chainName={(id) => (id === chain.id ? chain.name : `Chain ${id}`)}
          />
        )}
        {cost && (
          <TransactionRows
            to={request.transaction?.to}
            amount={cost.amount}
            maxFee={cost.maxFee}
            currency={currency}
          />
        )}
      </dl>
      {shortfall !== null && (
        <p role="alert" className="symbolon-alert">
          Not enough {currency.symbol} to cover the network fee. You need{" "}
          <Money wei={shortfall} currency={currency} /> more.
        </p>
      )}
      {kind === "sign-message" && <MessageBlock message={request.message ?? ""} />}
      {kind === "sign-typed-data" && (
        // The whole object that is signed (domain, types, primaryType, message), for those who want it.
        <details className="symbolon-more">
          <summary>Details</summary>
          <Block label="Typed data" testId="confirm-typed-data">
            {toJson(typedDataOf(request.typedData))}
          </Block>
        </details>
      )}
      {isTransaction && hasData(request.transaction) && (
        <Block label="Data">{String(request.transaction?.data)}</Block>
      )}
      <div className="symbolon-actions">
        <button
          type="button"
          className="symbolon-button symbolon-button--secondary"
          data-autofocus
          onClick={onCancel}
        >
          Cancel
        </button>
        <button type="button" className="symbolon-button" disabled={shortfall !== null} onClick={onConfirm}>
          {buttonText}
        </button>
      </div>
    </>
  );
}

/**
 * The message to sign. One of only blank space (a host may ask for it) would look like nothing:
 * it is shown as visible marks (· for a space, ⏎ for a line break) and said in words.
 */
function MessageBlock({ message }: { message: string }) {
  if (message.trim() !== "") return <Block label="Message">{message}</Block>;
  const shown = message.replace(/ /g, "·").replace(/\n/g, "⏎\n").replace(/\t/g, "⇥");
  return (
    <>
      <Block label="Message">{shown}</Block>
      <p className="symbolon-status" data-testid="blank-message">
        {message === ""
          ? "This message is empty."
          : `This message is only blank space (${message.length} ${message.length === 1 ? "character" : "characters"}).`}
      </p>
    </>
  );
}

/** A labelled, scrollable, pre-wrapped text block (message, typed-data tree, calldata). */
function Block({ label, testId, children }: { label: string; testId?: string; children: string }) {
  return (
    <section className="symbolon-block" aria-label={label}>
      <p className="symbolon-label">{label}</p>
      {/* Focusable so keyboard users can scroll a long message. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard. */}
      <pre className="symbolon-message" tabIndex={0} data-testid={testId}>
        {children}
      </pre>
    </section>
  );
}

/** Typed data may come as an object or as its JSON text (eth_signTypedData_v4 takes either). */
function typedDataOf(typedData: unknown): TypedDataView {
  if (typeof typedData === "string") {
    try {
      return JSON.parse(typedData) as TypedDataView;
    } catch {
      return { message: typedData };
    }
  }
  return typedData && typeof typedData === "object" ? (typedData as TypedDataView) : {};
}

type Currency = WalletConfirmationRequest["chain"]["nativeCurrency"];

/** A transaction's amount and the most its network fee can be (every unit of gas at the highest fee). */
function costOf(transaction: Record<string, unknown>): { amount: bigint; maxFee?: bigint } {
  const amount = toBigInt(transaction.value) ?? 0n;
  const gas = toBigInt(transaction.gas);
  const feePerGas = toBigInt(transaction.maxFeePerGas) ?? toBigInt(transaction.gasPrice);
  return gas !== undefined && feePerGas !== undefined ? { amount, maxFee: gas * feePerGas } : { amount };
}

function TransactionRows({
  to,
  amount,
  maxFee,
  currency,
}: {
  to: unknown;
  amount: bigint;
  maxFee: bigint | undefined;
  currency: Currency;
}) {
  return (
    <>
      {typeof to === "string" && (
        <Row label="To">
          <Address value={to} />
        </Row>
      )}
      <Row label="Amount">
        <Money wei={amount} currency={currency} />
      </Row>
      {maxFee !== undefined && (
        <Row label="Estimated max fee">
          <Money wei={maxFee} currency={currency} />
        </Row>
      )}
      {maxFee !== undefined && (
        <Row label="Total">
          <Money wei={amount + maxFee} currency={currency} />
        </Row>
      )}
    </>
  );
}

/** An amount rounded for reading; the exact value on hover. */
function Money({ wei, currency }: { wei: bigint; currency: Currency }) {
  const exact = `${formatUnits(wei, currency.decimals)} ${currency.symbol}`;
  return <span title={exact}>{`${roundUnits(wei, currency.decimals)} ${currency.symbol}`}</span>;
}

/** Numeric transaction fields arrive as bigint; hex or decimal text and numbers are accepted too. */
function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value);
  return undefined;
}

function hasData(transaction: Record<string, unknown> | undefined): boolean {
  return typeof transaction?.data === "string" && transaction.data !== "0x" && transaction.data !== "";
}

function toJson(value: unknown): string {
  return JSON.stringify(
    value ?? null,
    (_key, item) => (typeof item === "bigint" ? item.toString() : item),
    2,
  );
}
