// Error classes with stable codes, their guards, and words for the UI.
export { ApiError, type ApiErrorOptions, isApiError } from "../errors/ApiError.ts";
export { ClientError, isClientError } from "../errors/ClientError.ts";
export { describeError } from "../errors/describeError.ts";
export { SymbolonError, type SymbolonErrorOptions } from "../errors/SymbolonError.ts";
