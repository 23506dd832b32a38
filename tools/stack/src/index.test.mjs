// startStack with the real server binary (built by `make setup`): what dev, e2e and bench rely on.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import net from "node:net";
import { test } from "node:test";
import { DEMO_APP_ID, PortInUseError, startStack } from "./index.mjs";

const processAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("starts the server with the demo app and stops every process it started", async () => {
  const stack = await startStack({ mode: "test", web: false, origins: ["http://localhost:5173"] });
  try {
    assert.equal(stack.appId, DEMO_APP_ID);
    const health = await fetch(`${stack.urls.api}/health`);
    assert.deepEqual(await health.json(), { status: "ok" });
    const config = await fetch(`${stack.urls.api}/api/v1/apps/${stack.appId}`, {
      headers: { "privy-app-id": stack.appId, origin: "http://localhost:5173" },
    });
    assert.equal(config.status, 200);
    assert.equal((await config.json()).name, "Symbolon Demo");
  } finally {
    await stack.stop();
  }
  assert.equal(processAlive(stack.serverPid), false, "the server is gone after stop()");
  assert.equal(existsSync(stack.logs.server), false, "the temp dir is removed");
  await assert.rejects(fetch(`${stack.urls.api}/health`));
});

test("a taken fixed port is reported by service and port before anything starts", async () => {
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = blocker.address();
  try {
    await assert.rejects(
      startStack({ mode: "test", web: false, ports: { api: port } }),
      (error) => error instanceof PortInUseError && error.port === port && error.service === "API server",
    );
  } finally {
    blocker.close();
  }
});
