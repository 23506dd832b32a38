// The Farcaster screen opens one relay channel per screen, also under StrictMode (issue 20 item 8).
import { type AppConfigResponse, createClient, createMemoryStorage } from "@symbolon/core";
import { startScriptedServer } from "@symbolon/core/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { StrictMode } from "react";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { createModalController } from "../provider/createModalController";
import { TEST_APP_ID } from "../test/startTestServer";
import FarcasterScreen from "./FarcasterScreen";

afterEach(cleanup);

describe("FarcasterScreen", () => {
  it("opens a single relay channel when StrictMode mounts it twice", async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    server.on("POST /api/v1/farcaster/init", () => ({
      json: { channel_token: "c1", connect_uri: "farcaster://connect?channelToken=c1", nonce: "n" },
    }));
    server.on("GET /api/v1/farcaster/status", () => ({ json: { state: "pending" } }));
    const client = createClient({
      appId: TEST_APP_ID,
      apiUrl: server.url,
      storage: createMemoryStorage(),
      broadcast: false,
    });
    client.store.setState({ ready: true, appConfig: { name: "Acme" } as AppConfigResponse });
    const controller = createModalController(client);
    render(
      <StrictMode>
        <FarcasterScreen client={client} controller={controller} flow="login" titleId="t" />
      </StrictMode>,
    );
    await screen.findByRole("link", { name: /farcaster/i });
    // Give a second init, if one were made, time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.hitsOf("POST /api/v1/farcaster/init")).toHaveLength(1);
  });
});
