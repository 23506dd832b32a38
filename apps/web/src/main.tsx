import { start } from "./start";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
// `SYMBOLON_TEST_WALLET=1 make dev`: the dev server only; `import.meta.env.DEV` is false in builds, so the
// test wallets' code is left out of them.
if (import.meta.env.DEV && import.meta.env.VITE_TEST_WALLET === "true")
  (await import("./devTestWallet")).installDevTestWallets(import.meta.env);
start(container, import.meta.env);
