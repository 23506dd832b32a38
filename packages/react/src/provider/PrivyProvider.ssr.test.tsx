// @vitest-environment node
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { usePrivy } from "../hooks/usePrivy";
import { TEST_APP_ID } from "../test/startTestServer";
import { PrivyProvider } from "./PrivyProvider";

function Status() {
  const { ready, authenticated } = usePrivy();
  return <p>{`ready=${ready} authenticated=${authenticated}`}</p>;
}

describe("PrivyProvider on the server", () => {
  it("renders without touching window, not ready", () => {
    expect(typeof window).toBe("undefined");
    const html = renderToString(
      <PrivyProvider
        appId={TEST_APP_ID}
        apiUrl="http://localhost:8787"
        config={{ appearance: { theme: "dark" } }}
      >
        <Status />
      </PrivyProvider>,
    );
    expect(html).toBe("<p>ready=false authenticated=false</p>");
  });
});
