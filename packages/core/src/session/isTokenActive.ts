import { ACCESS_TOKEN_EXPIRY_SKEW_S } from "../generated/protocol.ts";
import { decodeJwtPayload } from "./decodeJwtPayload.ts";

/** Spec §4: a token is active until ACCESS_TOKEN_EXPIRY_SKEW_S (30 s) before its `exp`. */
export function isTokenActive(token: string | null, nowMs: number = Date.now()): boolean {
  if (token === null) return false;
  const exp = decodeJwtPayload(token)?.exp;
  if (typeof exp !== "number") return false;
  return exp - ACCESS_TOKEN_EXPIRY_SKEW_S > nowMs / 1000;
}
