import { render, screen } from "@testing-library/react";
import { onTestFinished } from "vitest";
import type { LoginCompleteParams } from "../hooks/toLoginComplete";
import { useLogin } from "../hooks/useLogin";
import { usePrivy } from "../hooks/usePrivy";
import type { PrivyConfig } from "../provider/PrivyConfig";
import { PrivyProvider } from "../provider/PrivyProvider";
import { startTestServer, TEST_APP_ID, type TestServer, type TestServerOptions } from "./startTestServer";

/** What a test sees of a rendered host app. */
export interface RenderedApp {
  server: TestServer;
  completed: LoginCompleteParams[];
  errors: string[];
}

function Host() {
  const { ready, authenticated, user } = usePrivy();
  return (
    <main>
      <p data-testid="status">{ready ? (authenticated ? "signed-in" : "signed-out") : "loading"}</p>
      {user?.email && <p data-testid="user-email">{user.email.address}</p>}
    </main>
  );
}

function LoginButton({ app }: { app: RenderedApp }) {
  const { login } = useLogin({
    onComplete: (params) => app.completed.push(params),
    onError: (code) => app.errors.push(code),
  });
  return (
    <button type="button" onClick={login}>
      Log in
    </button>
  );
}

/** Starts a test server, renders a host app under the provider and waits until it is ready. */
export async function renderApp(
  options: TestServerOptions & { config?: PrivyConfig } = {},
): Promise<RenderedApp> {
  const server = await startTestServer(options);
  onTestFinished(() => server.close());
  const app: RenderedApp = { server, completed: [], errors: [] };
  render(
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url} config={options.config}>
      <Host />
      <LoginButton app={app} />
    </PrivyProvider>,
  );
  await screen.findByText("signed-out");
  return app;
}
