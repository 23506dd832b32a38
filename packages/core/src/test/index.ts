// Test kit for packages that build on the core client (`@symbolon/core/testing`): a real HTTP server
// scripted per test, speaking the wire protocol, and fixtures. Not part of the runtime surface.

export {
  embeddedWalletAccount,
  type FakeWalletFrame,
  type FakeWalletFrameOptions,
  installFakeWalletFrame,
} from "./fakeWalletFrame.ts";
export { APP_ID, GOOGLE_ACCOUNT, makeUser, mintToken, sessionResponse } from "./fixtures.ts";
export {
  appConfig,
  DELEGATION_SIGNER,
  GOOD_CODE,
  oauthStateCodeOf,
  type ScriptedApp,
  type ScriptOptions,
  scriptApp,
} from "./scriptApp.ts";
export {
  type Handler,
  type Hit,
  type Reply,
  type ScriptedServer,
  startScriptedServer,
} from "./scriptedServer.ts";
