// A signing request as a person reads it, like the modal's confirmation screen
// (packages/react/src/modal/ConfirmScreen.tsx, TypedDataRows.tsx): a transaction as rows with its
// amount in the chain's native currency, a message as text, typed data as nested rows.

import { type CrossAppRequest, formatUnits, roundUnits } from "@symbolon/core";
import { addressRow, el, row } from "./ui.ts";
import { toBigInt } from "./units.ts";

type Chain = NonNullable<CrossAppRequest["chain"]>;
type Currency = Chain["nativeCurrency"];

/** Chains named when the request does not carry its chain (the web app's chain is Somnia Testnet). */
const KNOWN_CHAINS: Record<number, { name: string; nativeCurrency: Currency }> = {
  1: { name: "Ethereum", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 } },
  50312: {
    name: "Somnia Testnet",
    nativeCurrency: { name: "Somnia Test Token", symbol: "STT", decimals: 18 },
  },
};

/** Nested typed-data structs deeper than this are shown as JSON text. */
const MAX_DEPTH = 4;

/** A personal_sign message as text: hex decoded when it is UTF-8, otherwise as sent. */
export function readableMessage(message: unknown): string {
  const text = typeof message === "string" ? message : String(message);
  if (!/^0x([0-9a-fA-F]{2})*$/.test(text) || text.length === 2) return text;
  const bytes = new Uint8Array((text.length - 2) / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(2 + i * 2, 4 + i * 2), 16);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return text;
  }
}

/** What the user checks before approving `request`, signed by `wallet`: rows, then any text blocks. */
export function requestView(request: CrossAppRequest, wallet: string): HTMLElement[] {
  const rows = el("dl", { class: "rows" }, addressRow("Wallet", wallet));
  const view: HTMLElement[] = [rows];
  if (request.method === "personal_sign") {
    view.push(block("Message", readableMessage(request.params[0])));
  } else if (request.method === "eth_signTypedData_v4") {
    const typed = typedDataOf(request.params[1]);
    typedDataRows(rows, typed, (id) => chainOf(request, id).name);
    const details = el("details", { class: "more" }, el("summary", {}, "Details"));
    details.append(block("Typed data", toJson(typed)));
    view.push(details);
  } else {
    const tx = isRecord(request.params[0]) ? request.params[0] : {};
    const chain = chainOf(request, toNumber(tx.chainId));
    if (typeof tx.to === "string") rows.append(addressRow("To", tx.to));
    const amount = toBigInt(tx.value) ?? 0n;
    rows.append(row("Amount", money(amount, chain.nativeCurrency)), row("Network", chain.name));
    const gas = toBigInt(tx.gas);
    const feePerGas = toBigInt(tx.maxFeePerGas) ?? toBigInt(tx.gasPrice);
    if (gas !== undefined && feePerGas !== undefined) {
      rows.append(
        row("Estimated max fee", money(gas * feePerGas, chain.nativeCurrency)),
        row("Total", money(amount + gas * feePerGas, chain.nativeCurrency)),
      );
    }
    if (typeof tx.data === "string" && tx.data !== "" && tx.data !== "0x") view.push(block("Data", tx.data));
  }
  return view;
}

/** The request's chain: the one it carries, else a known one by id, else "Chain {id}". */
function chainOf(
  request: CrossAppRequest,
  id: number | undefined,
): { name: string; nativeCurrency: Currency } {
  if (request.chain && (id === undefined || id === request.chain.id)) return request.chain;
  const known = id === undefined ? undefined : KNOWN_CHAINS[id];
  if (known) return known;
  return {
    name: id === undefined ? "Unknown network" : `Chain ${id}`,
    nativeCurrency: { name: "native", symbol: "(native units)", decimals: 18 },
  };
}

/** An amount rounded for reading, the exact value on hover. */
function money(wei: bigint, currency: Currency): HTMLElement {
  const exact = `${formatUnits(wei, currency.decimals)} ${currency.symbol}`;
  return el("span", { title: exact }, `${roundUnits(wei, currency.decimals)} ${currency.symbol}`);
}

/** A labelled, scrollable, wrapped text block; focusable so a keyboard can scroll it. */
function block(label: string, text: string): HTMLElement {
  return el(
    "section",
    { class: "block", "aria-label": label },
    el("p", { class: "label" }, label),
    el("pre", { class: "message", tabindex: "0" }, text),
  );
}

interface TypedDataView {
  domain?: Record<string, unknown>;
  types?: Record<string, ReadonlyArray<{ name: string; type: string }>>;
  primaryType?: unknown;
  message?: unknown;
}
type Types = NonNullable<TypedDataView["types"]>;

function typedDataOf(value: unknown): TypedDataView {
  if (typeof value === "string") {
    try {
      return typedDataOf(JSON.parse(value));
    } catch {
      return { message: value };
    }
  }
  return isRecord(value) ? (value as TypedDataView) : {};
}

/** EIP-712 domain and the primary type's fields as rows, nested structs indented under their field. */
function typedDataRows(rows: HTMLElement, typed: TypedDataView, chainName: (id: number) => string): void {
  const { domain = {}, types = {}, primaryType, message } = typed;
  const chainId = toNumber(domain.chainId);
  if (domain.name !== undefined) rows.append(row("App", String(domain.name)));
  if (domain.version !== undefined) rows.append(row("Version", String(domain.version)));
  if (chainId !== undefined) rows.append(row("Chain", chainName(chainId)));
  if (typeof domain.verifyingContract === "string") {
    rows.append(addressRow("Contract", domain.verifyingContract));
  }
  if (typeof primaryType === "string") rows.append(row("Type", primaryType));
  if (typeof primaryType === "string" && isRecord(message)) {
    rows.append(group("Message", fields(primaryType, message, types, 1)));
  }
}

function group(label: string, content: HTMLElement): HTMLElement {
  const node = row(label, content);
  node.classList.add("group");
  return node;
}

function fields(type: string, value: Record<string, unknown>, types: Types, depth: number): HTMLElement {
  const list = el("dl", { class: "fields" });
  const declared = types[type] ?? Object.keys(value).map((name) => ({ name, type: "" }));
  for (const { name, type: fieldType } of declared) {
    list.append(...field(name, fieldType, value[name], types, depth));
  }
  return list;
}

function field(name: string, type: string, value: unknown, types: Types, depth: number): HTMLElement[] {
  const item = type.endsWith("]") ? type.slice(0, type.lastIndexOf("[")) : null;
  if (item !== null && Array.isArray(value)) {
    return value.flatMap((element, index) => field(`${name} ${index + 1}`, item, element, types, depth));
  }
  if (types[type] && isRecord(value) && depth < MAX_DEPTH) {
    return [group(name, fields(type, value, types, depth + 1))];
  }
  return [type === "address" && typeof value === "string" ? addressRow(name, value) : row(name, text(value))];
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean") {
    return String(value);
  }
  return toJson(value);
}

function toJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}

function toNumber(value: unknown): number | undefined {
  const big = toBigInt(value);
  return big === undefined ? undefined : Number(big);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
