// The real server for core's integration test, started the one way every suite starts it: tools/stack
// (the binary, an app made with its CLI, SQLite, the SMTP capture mailbox). No web app: the test is the client.
import { startStack } from "@symbolon/stack";

/** The origin the test app allows; clients under test send it like a page served there. */
export const ORIGIN = "http://localhost:1";

/** The real server binary, an app created with its CLI, and the local SMTP mailbox. */
export interface RealStack {
  apiUrl: string;
  appId: string;
  /** Waits for the newest 6-digit code mailed to `email`. */
  readCode(email: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the stack; fails loudly (with the build command) when the server binary is missing. */
export async function startRealStack(): Promise<RealStack> {
  const stack = await startStack({ mode: "test", web: false, origins: [ORIGIN], handleSignals: false });
  return {
    apiUrl: stack.urls.api,
    appId: stack.appId,
    readCode: (email) => stack.mailbox.waitForCode(email),
    stop: () => stack.stop(),
  };
}
