import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The server serves dist/index.html at /apps/{appId}/embedded-wallets and dist/assets/* at
// /embedded-wallets/assets/*, so every asset URL is absolute under that base.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/embedded-wallets/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // CSP has no data: for scripts, styles or connect: every asset must be a real file.
    assetsInlineLimit: 0,
    // No modulepreload polyfill: it is dead weight for a single entry chunk.
    modulePreload: false,
    target: "es2022",
  },
});
