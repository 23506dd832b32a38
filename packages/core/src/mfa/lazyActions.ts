// The MFA calls as `@symbolon/core` exports them: each loads `actions.ts` (and with it WebAuthn's
// JSON conversion) on first call, so pages that never verify or enrol do not download them.
import { lazyExport } from "../utils/lazyExport.ts";
import type * as Actions from "./actions.ts";

type Module = typeof Actions;
const load = (): Promise<Module> => import("./actions.ts");
const lazy = <K extends keyof Module>(name: K): Module[K] => lazyExport(load, name);

export const initMfa = lazy("initMfa");
export const submitMfa = lazy("submitMfa");
export const initMfaEnrollment = lazy("initMfaEnrollment");
export const submitMfaEnrollment = lazy("submitMfaEnrollment");
export const unenrollMfa = lazy("unenrollMfa");
