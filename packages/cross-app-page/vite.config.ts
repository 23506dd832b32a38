import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The server serves dist/index.html at /apps/{appId}/oauth/authorize and /oauth/transact, and
// dist/assets/* at /cross-app/assets/*, so every asset URL is absolute under that base.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/cross-app/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The CSP allows no inline or data: scripts and styles: every asset must be a real file.
    assetsInlineLimit: 0,
    modulePreload: false,
    target: "es2022",
  },
});
