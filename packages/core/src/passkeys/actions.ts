// The passkey actions loaded on first use (through `lazyActions.ts`).
export { linkWithPasskey } from "./linkWithPasskey.ts";
export { loginWithPasskey } from "./loginWithPasskey.ts";
export { signupWithPasskey } from "./signupWithPasskey.ts";
export { unlinkPasskey } from "./unlinkPasskey.ts";
