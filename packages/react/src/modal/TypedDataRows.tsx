import { Address } from "./Address";
import { Row } from "./Row";

/** An EIP-712 object as the confirmation screen reads it (every part may be missing or malformed). */
export interface TypedDataView {
  domain?: Record<string, unknown>;
  types?: Record<string, ReadonlyArray<{ name: string; type: string }>>;
  primaryType?: unknown;
  message?: unknown;
}

/** Props of {@link TypedDataRows}. */
export interface TypedDataRowsProps {
  typedData: TypedDataView;
  /** Name of a chain id, for the domain's `chainId` (the configured chain's name when it is that one). */
  chainName: (id: number) => string;
}

/** Nested structs deeper than this are shown as JSON (the full object is in Details anyway). */
const MAX_DEPTH = 4;

/**
 * EIP-712 typed data as a person reads it: the domain (app name, chain, contract) and the primary
 * type's fields as labelled rows, nested structs indented under their field.
 */
export function TypedDataRows({ typedData, chainName }: TypedDataRowsProps) {
  const { domain = {}, types = {}, primaryType, message } = typedData;
  const chainId = toChainId(domain.chainId);
  return (
    <>
      {domain.name !== undefined && <Row label="App">{String(domain.name)}</Row>}
      {domain.version !== undefined && <Row label="Version">{String(domain.version)}</Row>}
      {chainId !== undefined && <Row label="Chain">{chainName(chainId)}</Row>}
      {typeof domain.verifyingContract === "string" && (
        <Row label="Contract">
          <Address value={domain.verifyingContract} />
        </Row>
      )}
      {typeof primaryType === "string" && <Row label="Type">{primaryType}</Row>}
      {typeof primaryType === "string" && isRecord(message) && (
        <div className="symbolon-row symbolon-row--group">
          <dt>Message</dt>
          <dd>
            <Fields type={primaryType} value={message} types={types} depth={1} />
          </dd>
        </div>
      )}
    </>
  );
}

function Fields({
  type,
  value,
  types,
  depth,
}: {
  type: string;
  value: Record<string, unknown>;
  types: NonNullable<TypedDataView["types"]>;
  depth: number;
}) {
  // Fields in the order the type declares them; a message without its type is shown as it is.
  const fields = types[type] ?? Object.keys(value).map((name) => ({ name, type: "" }));
  return (
    <dl className={depth < 1 ? "symbolon-fields" : "symbolon-fields symbolon-fields--nested"}>
      {fields.map(({ name, type: fieldType }) => (
        <Field key={name} name={name} type={fieldType} value={value[name]} types={types} depth={depth} />
      ))}
    </dl>
  );
}

function Field({
  name,
  type,
  value,
  types,
  depth,
}: {
  name: string;
  type: string;
  value: unknown;
  types: NonNullable<TypedDataView["types"]>;
  depth: number;
}) {
  const item = type.endsWith("]") ? type.slice(0, type.lastIndexOf("[")) : null;
  if (item !== null && Array.isArray(value)) {
    return (
      <>
        {value.map((element, index) => (
          <Field
            // biome-ignore lint/suspicious/noArrayIndexKey: array positions are the identity of typed-data items.
            key={index}
            name={`${name} ${index + 1}`}
            type={item}
            value={element}
            types={types}
            depth={depth}
          />
        ))}
      </>
    );
  }
  if (types[type] && isRecord(value) && depth < MAX_DEPTH) {
    return (
      <div className="symbolon-row symbolon-row--group">
        <dt>{name}</dt>
        <dd>
          <Fields type={type} value={value} types={types} depth={depth + 1} />
        </dd>
      </div>
    );
  }
  return (
    <Row label={name}>
      {type === "address" && typeof value === "string" ? <Address value={value} /> : text(value)}
    </Row>
  );
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean")
    return String(value);
  return JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : item)) ?? "";
}

function toChainId(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return Number(value);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
