import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { LogoutButton } from "./LogoutButton";

describe("LogoutButton", () => {
  it("logs a signed-in user out at once", () => {
    const onLogout = vi.fn();
    render(<LogoutButton isGuest={false} onLogout={onLogout} />);
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it("warns a guest that the guest account and its wallet will be lost, and logs out only when confirmed", () => {
    const onLogout = vi.fn();
    render(<LogoutButton isGuest onLogout={onLogout} />);
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    expect(onLogout).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toMatch(/guest account: the account and its wallet.*lost/);
    fireEvent.click(screen.getByRole("button", { name: "Stay signed in" }));
    expect(onLogout).not.toHaveBeenCalled();
    expect(screen.queryByRole("alert")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    fireEvent.click(screen.getByRole("button", { name: "Log out and lose the guest account" }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });
});
