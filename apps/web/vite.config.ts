import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// One port for dev and preview so the stack and the e2e tests know where the app is.
const port = Number(process.env.WEB_PORT ?? 5173);

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react()],
  server: { port, strictPort: true },
  preview: { port, strictPort: true },
  build: { outDir: "dist", emptyOutDir: true },
});
