import { describe, expect, it } from "vitest";
import { appFor, loadEnv } from "./env";

const valid = { VITE_APP_URL: "http://localhost:5173", VITE_PRIVY_APP_ID: "cm0testapp0000000000000ab" };

describe("loadEnv (spec §5 web app environment)", () => {
  it("applies the defaults", () => {
    const env = loadEnv(valid, false);
    expect(env.VITE_APP_URL).toBe("http://localhost:5173");
    expect(env.VITE_PRIVY_APP_ID).toBe("cm0testapp0000000000000ab");
    expect(env.VITE_CHAIN_ID).toBe("50312");
    expect(env.VITE_AGENTS_API_URL).toBe("http://localhost:8000");
    expect(env.VITE_PRIVY_API_URL).toBe("http://localhost:8787");
    expect(env.VITE_CHAIN_RPC_URL).toBeUndefined();
    expect(env.VITE_LOCAL_FAUCET).toBe(false);
  });

  it("reads the local faucet switch and the chain RPC URL", () => {
    const env = loadEnv(
      { ...valid, VITE_LOCAL_FAUCET: "true", VITE_CHAIN_RPC_URL: "http://127.0.0.1:8545" },
      false,
    );
    expect(env.VITE_LOCAL_FAUCET).toBe(true);
    expect(env.VITE_CHAIN_RPC_URL).toBe("http://127.0.0.1:8545");
    expect(loadEnv({ ...valid, VITE_LOCAL_FAUCET: "FALSE" }, false).VITE_LOCAL_FAUCET).toBe(false);
  });

  it("refuses a faucet switch that is not true or false, and a bad chain RPC URL", () => {
    expect(() => loadEnv({ ...valid, VITE_LOCAL_FAUCET: "yes", VITE_CHAIN_RPC_URL: "anvil" }, false)).toThrow(
      'Invalid environment variables: VITE_CHAIN_RPC_URL must be a valid URL (got "anvil"); VITE_LOCAL_FAUCET must be "true" or "false" (got "yes")',
    );
  });

  it("treats empty strings as unset", () => {
    expect(loadEnv({ ...valid, VITE_CHAIN_ID: "", VITE_AGENTS_API_URL: " " }, false)).toMatchObject({
      VITE_CHAIN_ID: "50312",
      VITE_AGENTS_API_URL: "http://localhost:8000",
    });
  });

  it("refuses bad values with 'Invalid environment variables' naming each of them", () => {
    let message = "";
    try {
      loadEnv({ VITE_APP_URL: "not a url", VITE_AGENTS_API_URL: "ftp://x", VITE_PRIVY_API_URL: "x" }, false);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith("Invalid environment variables")).toBe(true);
    expect(message).toContain('VITE_APP_URL must be a valid URL (got "not a url")');
    expect(message).toContain("VITE_PRIVY_APP_ID is required");
    expect(message).toContain("VITE_AGENTS_API_URL must be a valid URL");
    expect(message).toContain("VITE_PRIVY_API_URL must be a valid URL");
    expect(message).not.toContain("VITE_CHAIN_ID");
  });

  it("refuses a missing app URL", () => {
    expect(() => loadEnv({ VITE_PRIVY_APP_ID: "x" }, false)).toThrow(
      "Invalid environment variables: VITE_APP_URL is required",
    );
  });

  it("throws when the client reads a server-only variable", () => {
    const env = loadEnv({ ...valid, PRIVY_APP_SECRET: "secret" }, false);
    expect(() => env.PRIVY_APP_SECRET).toThrow(
      new Error("Attempted to access a server-side environment variable on the client"),
    );
  });

  it("lets the server read and requires server-only variables", () => {
    expect(loadEnv({ ...valid, PRIVY_APP_SECRET: "secret" }, true).PRIVY_APP_SECRET).toBe("secret");
    expect(() => loadEnv(valid, true)).toThrow("Invalid environment variables: PRIVY_APP_SECRET is required");
  });

  it("picks app B's id on app B's origin only", () => {
    const env = loadEnv(
      { ...valid, VITE_APP_B_URL: "http://localhost:5174", VITE_PRIVY_APP_B_ID: "symbolondemo0000000000002" },
      false,
    );
    expect(appFor(env, "http://localhost:5174")).toEqual({
      appId: "symbolondemo0000000000002",
      isAppB: true,
    });
    expect(appFor(env, "http://localhost:5173")).toEqual({ appId: valid.VITE_PRIVY_APP_ID, isAppB: false });
    expect(appFor(loadEnv(valid, false), "http://localhost:5174").isAppB).toBe(false);
  });
});
