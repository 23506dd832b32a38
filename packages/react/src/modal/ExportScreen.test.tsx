import { ClientError } from "@symbolon/core";
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ExportScreen } from "./ExportScreen";
import { ModalFrame } from "./ModalFrame";

const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

function renderExport(mount: (container: HTMLElement) => { close(): void }, onDone = () => {}) {
  return render(
    <ModalFrame layout="dialog" theme="dark" height={620} labelledBy="export-title" onClose={onDone}>
      <ExportScreen address={ADDRESS} titleId="export-title" mount={mount} onDone={onDone} />
    </ModalFrame>,
  );
}

describe("export screen", () => {
  it("mounts the wallet page's iframe into its box and closes it on unmount", () => {
    const close = vi.fn();
    const mount = vi.fn((container: HTMLElement) => {
      const frame = document.createElement("iframe");
      frame.title = "Export wallet";
      container.appendChild(frame);
      return { close };
    });
    const view = renderExport(mount);
    expect(screen.getByRole("dialog", { name: "Export wallet" })).toBeTruthy();
    expect(screen.getByText(/shown by the wallet page below/)).toBeTruthy();
    expect(mount).toHaveBeenCalledTimes(1);
    expect(screen.getByTitle("Export wallet").tagName).toBe("IFRAME");
    expect(close).not.toHaveBeenCalled();
    view.unmount();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it("finishes with Done", () => {
    const onDone = vi.fn();
    renderExport(() => ({ close() {} }), onDone);
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it("shows why the wallet page could not be mounted", () => {
    renderExport(() => {
      throw new ClientError("invalid_input", "Invalid address");
    });
    expect(screen.getByRole("alert").textContent).toBe("Invalid address");
  });

  it("shows that the wallet page could not take the request", async () => {
    renderExport(() => ({
      close() {},
      ready: Promise.reject(new ClientError("invalid_input", "Wallet is not connected")),
    }));
    expect((await screen.findByRole("alert")).textContent).toBe("Wallet is not connected");
  });
});
