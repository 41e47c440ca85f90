import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// Tauri loads ui/dist from its own origin: relative asset paths, no remote URLs.
export default defineConfig({
  base: "./",
  plugins: [react()],
  clearScreen: false,
  server: { port: 1420, strictPort: true },
  build: {
    outDir: "dist",
    target: "es2021",
    modulePreload: { polyfill: false },
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
