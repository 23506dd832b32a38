/**
 * @symbolon/core: a framework-free client for a Symbolon (or spec-compatible) server.
 * The public surface is exactly what `src/exports/*` re-export.
 */
export * from "./exports/actions.ts";
export * from "./exports/client.ts";
export * from "./exports/errors.ts";
export * from "./exports/protocol.ts";
export * from "./exports/utils.ts";
export * from "./exports/wallet.ts";
