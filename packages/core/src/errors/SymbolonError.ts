/** Options shared by every Symbolon error. */
export interface SymbolonErrorOptions {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
}

/** Base class of every error the client throws: a stable `code` plus a readable message. */
export class SymbolonError extends Error {
  /** Stable machine-readable code (a server code of spec §8 or a client code). */
  code: string;
  /** The underlying error, if any. */
  override cause?: unknown;

  constructor(code: string, message: string, options: SymbolonErrorOptions = {}) {
    super(message);
    this.name = "SymbolonError";
    this.code = code;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}
