import { render, screen } from "@testing-library/react";
import { Component, type ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { usePrivy } from "../hooks/usePrivy";
import { TEST_APP_ID } from "../test/startTestServer";
import { PrivyProvider } from "./PrivyProvider";

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children;
  }
}

function Orphan() {
  usePrivy();
  return null;
}

// React logs caught render errors to console.error; keep the test output readable.
const quietly = () => vi.spyOn(console, "error").mockImplementation(() => {});

describe("PrivyProvider", () => {
  it("throws an error naming the length when the app id is not 25 characters", () => {
    quietly();
    expect(() => render(<PrivyProvider appId="too-short" apiUrl="http://localhost:1" />)).toThrow(
      'PrivyProvider: appId must be exactly 25 characters long; got 9 ("too-short").',
    );
  });

  it("refuses a provider nested in another", () => {
    quietly();
    render(
      <Boundary>
        <PrivyProvider appId={TEST_APP_ID} apiUrl="http://localhost:1">
          <PrivyProvider appId={TEST_APP_ID} apiUrl="http://localhost:1" />
        </PrivyProvider>
      </Boundary>,
    );
    expect(screen.getByRole("alert").textContent).toMatch(/^Only one PrivyProvider may be mounted/);
  });

  it("refuses a second provider mounted beside the first", async () => {
    quietly();
    render(<PrivyProvider appId={TEST_APP_ID} apiUrl="http://localhost:1" />);
    render(
      <Boundary>
        <PrivyProvider appId={TEST_APP_ID} apiUrl="http://localhost:1" />
      </Boundary>,
    );
    expect((await screen.findByRole("alert")).textContent).toMatch(/^Only one PrivyProvider may be mounted/);
  });

  it("allows a new provider once the previous one unmounted", async () => {
    const first = render(<PrivyProvider appId={TEST_APP_ID} apiUrl="http://localhost:1" />);
    first.unmount();
    render(
      <Boundary>
        <PrivyProvider appId={TEST_APP_ID} apiUrl="http://localhost:1">
          <p>child</p>
        </PrivyProvider>
      </Boundary>,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByText("child")).toBeTruthy();
  });

  it("makes hooks throw a clear error outside the provider", () => {
    quietly();
    expect(() => render(<Orphan />)).toThrow("usePrivy must be used within a PrivyProvider.");
  });
});
