// The passkey actions as `@symbolon/core` exports them: each loads `actions.ts` on first call, so the
// WebAuthn code stays out of the initial bundle of pages that never use a passkey.
import { lazyExport } from "../utils/lazyExport.ts";
import type * as Actions from "./actions.ts";

type Module = typeof Actions;
const load = (): Promise<Module> => import("./actions.ts");
const lazy = <K extends keyof Module>(name: K): Module[K] => lazyExport(load, name);

export const loginWithPasskey = lazy("loginWithPasskey");
export const signupWithPasskey = lazy("signupWithPasskey");
export const linkWithPasskey = lazy("linkWithPasskey");
export const unlinkPasskey = lazy("unlinkPasskey");
