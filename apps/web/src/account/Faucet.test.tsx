import { fireEvent, render, screen } from "@testing-library/react";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { localChainForFile } from "../test/localChain";
import { Faucet, LOCAL_FUNDER } from "./Faucet";

const chain = localChainForFile();

describe("faucet (real anvil)", () => {
  it("sends 1 STT from anvil's dev account, waits for the receipt, then reports it", async () => {
    expect(LOCAL_FUNDER).toBe(chain.funder.address);
    const address = privateKeyToAddress(generatePrivateKey());
    let funded = 0;
    render(<Faucet rpcUrl={chain.rpcUrl} address={address} onFunded={() => funded++} />);
    fireEvent.click(screen.getByRole("button", { name: "Get test STT" }));
    expect(await screen.findByText("Received 1 STT.")).toBeTruthy();
    expect(funded).toBe(1);
    expect(await chain.balanceOf(address)).toBe(parseEther("1"));
  });

  it("shows the chain's refusal", async () => {
    render(<Faucet rpcUrl={chain.rpcUrl} address="0x1234" onFunded={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Get test STT" }));
    expect((await screen.findByRole("alert")).textContent).not.toBe("");
    expect(screen.getByRole("button", { name: "Get test STT" })).toHaveProperty("disabled", false);
  });
});
