import type { Client } from "../client/createClient.ts";
import type { User } from "../generated/protocol.ts";
import type { SiweParameters } from "./types.ts";

/** Signs in with a connected Ethereum wallet (SIWE). */
export async function loginWithSiwe(_client: Client, _params: SiweParameters = {}): Promise<User> {
  throw new Error("TODO: loginWithSiwe");
}

/** Links a connected Ethereum wallet to the signed-in user. */
export async function linkWithSiwe(_client: Client, _params: SiweParameters = {}): Promise<User> {
  throw new Error("TODO: linkWithSiwe");
}

/** Signs in with a connected Solana wallet (SIWS). */
export async function loginWithSiws(_client: Client, _params: SiweParameters = {}): Promise<User> {
  throw new Error("TODO: loginWithSiws");
}

/** Links a connected Solana wallet to the signed-in user. */
export async function linkWithSiws(_client: Client, _params: SiweParameters = {}): Promise<User> {
  throw new Error("TODO: linkWithSiws");
}

/** Unlinks an external wallet (Ethereum or Solana) from the signed-in user. */
export async function unlinkWallet(_client: Client, _address: string): Promise<User> {
  throw new Error("TODO: unlinkWallet");
}
