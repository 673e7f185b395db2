import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.CURATE_API_URL ?? "http://127.0.0.1:3100";

export default defineConfig({
  plugins: [
    // The router plugin must run before react() so the generated, code-split route modules get the JSX transform.
    tanstackRouter({ target: "react", autoCodeSplitting: true }),
    react(),
    tailwindcss(),
  ],
  server: {
    port: 5173,
    proxy: { "/api": apiTarget, "/rss": apiTarget, "/uploads": apiTarget },
  },
});
