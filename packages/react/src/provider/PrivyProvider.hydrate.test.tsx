import { act, screen } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { usePrivy } from "../hooks/usePrivy";
import { startTestServer, TEST_APP_ID } from "../test/startTestServer";
import { PrivyProvider } from "./PrivyProvider";

function Status() {
  const { ready } = usePrivy();
  return <p data-testid="ready">{ready ? "ready" : "not ready"}</p>;
}

describe("PrivyProvider hydration", () => {
  it("hydrates server markup without a mismatch, then becomes ready", async () => {
    const server = await startTestServer();
    const app = (
      <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url}>
        <Status />
      </PrivyProvider>
    );
    const container = document.createElement("div");
    container.innerHTML = renderToString(app);
    document.body.appendChild(container);
    const problems: unknown[] = [];
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(container, app, { onRecoverableError: (error) => problems.push(error) });
    });
    expect(problems).toEqual([]);
    expect(await screen.findByText("ready")).toBeTruthy();
    act(() => root?.unmount());
    container.remove();
    await server.close();
  });
});
