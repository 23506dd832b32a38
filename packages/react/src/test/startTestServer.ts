import {
  APP_ID,
  GOOD_CODE,
  type ScriptedApp,
  type ScriptedServer,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";

/** A 25-character app id for tests. */
export const TEST_APP_ID = APP_ID;
export { GOOD_CODE };

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  appName?: string;
  disablePlusEmails?: boolean;
}

/** A real HTTP server speaking the email-login part of the wire protocol, scripted for tests. */
export interface TestServer {
  url: string;
  /** Addresses that were sent a code, in order, as the client sent them. */
  readonly sentTo: string[];
  /** Codes submitted to /passwordless/authenticate, in order. */
  readonly submitted: string[];
  /** Replaces a route's answer (core's scripted server). */
  on: ScriptedServer["on"];
  /** Requests to `"METHOD /path"` so far. */
  hitsOf: ScriptedServer["hitsOf"];
  /** The server side of the app: its user (change it, then read it again with `fetchUser`). */
  app: ScriptedApp;
  close(): Promise<void>;
}

const bodiesOf = (server: ScriptedServer, route: string, field: string) =>
  server.hitsOf(route).map((hit) => String((hit.body as Record<string, unknown>)[field]));

/** Starts core's scripted server on 127.0.0.1 with the app's routes (see `@symbolon/core/testing`). */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startScriptedServer();
  const app = scriptApp(server, {
    config: { name: options.appName ?? "Test App", disable_plus_emails: options.disablePlusEmails ?? false },
  });
  return {
    url: server.url,
    get sentTo() {
      return bodiesOf(server, "POST /api/v1/passwordless/init", "email");
    },
    get submitted() {
      return bodiesOf(server, "POST /api/v1/passwordless/authenticate", "code");
    },
    on: (route, handler) => server.on(route, handler),
    hitsOf: (route) => server.hitsOf(route),
    app,
    close: () => server.close(),
  };
}
