import { describe, expect, it } from "vitest";
import { scopedStorage } from "./scopedStorage.ts";
import { memoryStorage } from "./test/frameHarness.ts";

describe("scopedStorage", () => {
  it("reads, writes, lists and removes only its own prefix", () => {
    const storage = memoryStorage();
    storage.setItem("legacy", "unscoped");
    storage.setItem("B:k", "b");
    const a = scopedStorage(
      () => storage,
      () => "A:",
    );
    a.setItem("k", "a");
    expect(storage.getItem("A:k")).toBe("a");
    expect(a.getItem("k")).toBe("a");
    expect(a.getItem("legacy")).toBeNull();
    expect(a.length).toBe(1);
    expect(a.key(0)).toBe("k");
    expect(a.key(1)).toBeNull();
    a.removeItem("k");
    expect([...storage.items.keys()]).toEqual(["legacy", "B:k"]);
  });

  it("asks for the scope before touching the storage: an unverified embedder reads nothing", () => {
    let touched = false;
    const shut = scopedStorage(
      () => {
        touched = true;
        return memoryStorage();
      },
      () => {
        throw new Error("no embedder yet");
      },
    );
    expect(() => shut.getItem("k")).toThrow("no embedder yet");
    expect(() => shut.setItem("k", "v")).toThrow("no embedder yet");
    expect(() => shut.length).toThrow("no embedder yet");
    expect(touched).toBe(false);
  });
});
